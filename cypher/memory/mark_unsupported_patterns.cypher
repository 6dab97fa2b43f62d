// mode: write
// params: mind, olds
// After older memories ($olds: uids) were superseded or contradicted: a pattern of the mind that
// one of them exemplifies, and whose every experience has an invalid_at now (passed or to come),
// is invalid too, from when the last of them is (an earlier invalid_at stays); verification_status 'invalidated'.
// A pattern with one valid experience left still holds, but its text may state the replaced
// fact: it is marked stale (the next dream extracts it again). Returns the ids of the patterns invalidated.
UNWIND $olds AS old_uid
MATCH (:Experience {uid: old_uid})-[:EXEMPLIFIES]->(p:Pattern)
WHERE p.mind = $mind
WITH DISTINCT p
CALL (p) {
  MATCH (e:Experience)-[:EXEMPLIFIES]->(p)
  RETURN min(CASE WHEN e.invalid_at IS NULL THEN 0 ELSE 1 END) = 1 AS every_out, max(e.invalid_at) AS last_out
}
FOREACH (_ IN CASE WHEN every_out THEN [1] ELSE [] END |
  SET p.invalid_at = CASE WHEN p.invalid_at IS NULL OR p.invalid_at > last_out THEN last_out ELSE p.invalid_at END,
      p.verification_status = 'invalidated')
FOREACH (_ IN CASE WHEN every_out THEN [] ELSE [1] END | SET p.stale = true)
RETURN collect(CASE WHEN every_out THEN p.id END) AS invalidated
