// The vector index over embeddings; $embedding_dimensions comes from settings
// (GRAPHMIND_EMBEDDING_DIM). The full-text index is schema 011's (it was memory_search here).
CREATE VECTOR INDEX memory_embedding IF NOT EXISTS FOR (n:Memory) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: $embedding_dimensions, `vector.similarity_function`: 'cosine'}};
