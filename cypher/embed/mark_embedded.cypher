// mode: write
// params: mind, model_id, rows
// Store fresh embeddings (as a float vector) with the model and the hash of the text they were
// made from, clear the pending flag, and renew the mind's vector stamp. The stamp node is
// locked by this write, so 'previous' -> 'stamp' transitions form one chain: a recall cache
// holding 'previous' may apply these rows and hold 'stamp'. row: {uid, embedding, text_hash}
UNWIND $rows AS row
MATCH (n:Memory {uid: row.uid})
WHERE n.mind = $mind
CALL db.create.setNodeVectorProperty(n, 'embedding', row.embedding)
SET n.embedding_model = $model_id, n.embedding_hash = row.text_hash
REMOVE n.embedding_pending
WITH count(n) AS written
MERGE (v:GraphmindVectors {mind: $mind})
WITH written, v, v.stamp AS previous
SET v.stamp = randomUUID()
RETURN written, previous, v.stamp AS stamp
