// mode: write
// params: mind, olds
// After older memories ($olds: uids) were superseded or contradicted: a pattern of the mind that
// one of them exemplifies, and whose every experience has an invalid_at now (passed or to come),
// is invalid too, from when the last of them is (an earlier invalid_at stays); verification_status 'invalidated'.
// Either way its text may state the replaced fact: it is stale from when the replaced experiences
// stop holding (now, or a later invalid_at), ``stale_since`` (the earliest such moment when there
// are several), and the first dream after that extracts it again (graphmind.dream.refresh). Returns the ids of the patterns invalidated.
UNWIND $olds AS old_uid
MATCH (old:Memory {uid: old_uid})-[:EXEMPLIFIES]->(p:Pattern)
WHERE old:Experience AND p.mind = $mind
WITH p, max(old.invalid_at) AS replaced
CALL (p) {
  MATCH (e:Experience)-[:EXEMPLIFIES]->(p)
  RETURN min(CASE WHEN e.invalid_at IS NULL THEN 0 ELSE 1 END) = 1 AS every_out, max(e.invalid_at) AS last_out
}
FOREACH (_ IN CASE WHEN every_out THEN [1] ELSE [] END |
  SET p.invalid_at = CASE WHEN p.invalid_at IS NULL OR p.invalid_at > last_out THEN last_out ELSE p.invalid_at END,
      p.verification_status = 'invalidated')
WITH p, every_out, CASE WHEN replaced IS NOT NULL AND replaced > datetime() THEN replaced ELSE datetime() END AS stale
SET p.stale_since = CASE WHEN p.stale_since IS NULL OR stale < p.stale_since THEN stale ELSE p.stale_since END
RETURN collect(CASE WHEN every_out THEN p.id END) AS invalidated
