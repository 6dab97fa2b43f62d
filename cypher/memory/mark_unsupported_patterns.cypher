// mode: write
// params: mind, olds
// After older memories ($olds: uids) were superseded or contradicted: a pattern of the mind that
// one of them exemplifies, and whose every experience has an invalid_at now (passed or to come),
// is invalid too, from when the last of them is (an earlier invalid_at stays); verification_status 'invalidated'.
// A pattern with one valid experience left still holds. Returns the ids of the patterns marked.
UNWIND $olds AS old_uid
MATCH (:Experience {uid: old_uid})-[:EXEMPLIFIES]->(p:Pattern)
WHERE p.mind = $mind
WITH DISTINCT p
CALL (p) {
  MATCH (e:Experience)-[:EXEMPLIFIES]->(p)
  RETURN min(CASE WHEN e.invalid_at IS NULL THEN 0 ELSE 1 END) = 1 AS every_out, max(e.invalid_at) AS last_out
}
WITH p, last_out WHERE every_out
SET p.invalid_at = CASE WHEN p.invalid_at IS NULL OR p.invalid_at > last_out THEN last_out ELSE p.invalid_at END,
    p.verification_status = 'invalidated'
RETURN collect(p.id) AS invalidated
