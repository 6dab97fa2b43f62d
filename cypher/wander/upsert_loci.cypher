// mode: write
// params: mind, rows
// Create or update loci with their embeddings, linked (:Locus)-[:REFERS_TO]->(:Memory) to the
// memories they stand for or came from, and renew the mind's vector stamp (recall caches).
// row: {uid, id, props, embedding, text_hash, model_id, refers_to: [uid], refresh}: an existing
// locus takes the row's props and embedding only when refresh is true (a memory whose text
// changed); a concept the walk meets again keeps what it was.
UNWIND $rows AS row
MERGE (l:Memory {uid: row.uid})
  ON CREATE SET l.created_at = datetime(), l:Locus, l += row.props, l.mind = $mind, l.id = row.id,
                l.embedding_pending = true
WITH l, row, coalesce(l.embedding_pending, false) OR row.refresh AS fresh
FOREACH (_ IN CASE WHEN fresh THEN [1] ELSE [] END | SET l += row.props)
WITH l, row, fresh
CALL (l, row, fresh) {
  WITH l, row WHERE fresh
  CALL db.create.setNodeVectorProperty(l, 'embedding', row.embedding)
  SET l.embedding_model = row.model_id, l.embedding_hash = row.text_hash
  REMOVE l.embedding_pending
}
CALL (l, row) {
  UNWIND row.refers_to AS target
  MATCH (m:Memory {uid: target})
  WHERE m.mind = $mind
  MERGE (l)-[:REFERS_TO]->(m)
}
WITH count(l) AS written
MERGE (v:GraphmindVectors {mind: $mind})
SET v.stamp = randomUUID()
RETURN written
