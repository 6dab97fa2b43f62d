// Memories whose text is new or may have changed carry embedding_pending = true until the
// embedding pass (graphmind embed, or recall before it searches) has checked them. Nodes
// without the flag are absent from this index, so finding a mind's pending nodes costs only
// as much as there are pending nodes.
CREATE INDEX memory_embedding_pending IF NOT EXISTS FOR (n:Memory) ON (n.mind, n.embedding_pending);
