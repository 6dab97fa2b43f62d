// mode: write
// params: mind, rows
// Replace properties that held a verbatim copy of forgotten text. row: {uid, props}. A memory's
// embedding (made from the old text) is dropped and the memory flagged for the embedding pass.
UNWIND $rows AS row
CALL (row) {
  MATCH (n:Memory {uid: row.uid})
  RETURN n
  UNION
  MATCH (n:Run {uid: row.uid})
  RETURN n
}
WITH n, row
WHERE n.mind = $mind
SET n += row.props
FOREACH (_ IN CASE WHEN n:Memory THEN [1] ELSE [] END |
  SET n.embedding = null, n.embedding_pending = true)
RETURN count(n) AS scrubbed
