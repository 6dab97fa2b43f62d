// mode: write
// params: mind, rows
// Mark patterns pruned (never deleted). row: {uid, reason, by, invalid_at}: by is the uid of the
// pattern that supersedes it, or null → (:Pattern)-[:SUPERSEDED_BY]->(:Pattern); invalid_at
// (ISO-8601, or null for a pattern pruned for low utility, not shown wrong) is when it stopped
// holding (an earlier one stays).
UNWIND $rows AS row
MATCH (p:Memory {uid: row.uid})
WHERE p.mind = $mind
SET p.status = 'pruned', p.pruned_reason = row.reason,
    p.invalid_at = CASE
      WHEN row.invalid_at IS NULL THEN p.invalid_at
      WHEN p.invalid_at IS NULL OR p.invalid_at > datetime(row.invalid_at) THEN datetime(row.invalid_at)
      ELSE p.invalid_at END
WITH p, row
CALL (p, row) {
  MATCH (by:Memory {uid: row.by})
  WHERE by.mind = $mind
  MERGE (p)-[:SUPERSEDED_BY]->(by)
  RETURN count(by) AS superseded
}
RETURN count(p) AS pruned
