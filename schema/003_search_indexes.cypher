// Full-text index over the text of every memory, and the vector index over its embedding.
// $embedding_dimensions comes from settings (GRAPHMIND_EMBEDDING_DIM).
CREATE FULLTEXT INDEX memory_text IF NOT EXISTS FOR (n:Memory) ON EACH [n.text];
CREATE VECTOR INDEX memory_embedding IF NOT EXISTS FOR (n:Memory) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: $embedding_dimensions, `vector.similarity_function`: 'cosine'}};
