// mode: write
// params: mind, rows
// Mark patterns pruned (never deleted). row: {uid, reason, by}: by is the uid of the pattern
// that supersedes it, or null → (:Pattern)-[:SUPERSEDED_BY]->(:Pattern).
UNWIND $rows AS row
MATCH (p:Memory {uid: row.uid})
WHERE p.mind = $mind
SET p.status = 'pruned', p.pruned_reason = row.reason
WITH p, row
CALL (p, row) {
  MATCH (by:Memory {uid: row.by})
  WHERE by.mind = $mind
  MERGE (p)-[:SUPERSEDED_BY]->(by)
  RETURN count(by) AS superseded
}
RETURN count(p) AS pruned
