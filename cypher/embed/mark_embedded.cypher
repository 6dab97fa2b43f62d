// mode: write
// params: mind, model_id, rows
// Store fresh embeddings (as a float vector) with the model and the hash of the text they were
// made from, and clear the pending flag. row: {uid, embedding, text_hash}
UNWIND $rows AS row
MATCH (n:Memory {uid: row.uid})
WHERE n.mind = $mind
CALL db.create.setNodeVectorProperty(n, 'embedding', row.embedding)
SET n.embedding_model = $model_id, n.embedding_hash = row.text_hash
REMOVE n.embedding_pending
RETURN count(n) AS written
