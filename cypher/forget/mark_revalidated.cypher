// mode: write
// params: mind, uids
// Before the memories $uids are deleted: an older memory one of them superseded or contradicted
// is valid again unless another memory still replaces it. Its invalid_at, when it is the moment a
// forgotten one set (that one's valid_from, else its timestamp), moves to the earliest moment of
// those that still replace it, or goes; a pattern 'invalidated' then reads 'unverified', and so
// does a pattern that was invalid only because every experience behind it was (it has one valid
// experience again, and no memory supersedes or contradicts it). The patterns the changed ones
// exemplify are stale from now (``stale_since``, an earlier one stays): the next dream extracts
// them again with what holds again.
UNWIND $uids AS uid
MATCH (gone:Memory {uid: uid})-[:SUPERSEDES|CONTRADICTS]->(old:Memory)
WHERE gone.mind = $mind AND old.mind = $mind AND NOT old.uid IN $uids
WITH old, collect(coalesce(gone.valid_from, gone.timestamp)) AS set_by
WHERE old.invalid_at IN set_by
CALL (old) {
  OPTIONAL MATCH (other:Memory)-[:SUPERSEDES|CONTRADICTS]->(old)
  WHERE NOT other.uid IN $uids
  RETURN min(coalesce(other.valid_from, other.timestamp)) AS still
}
SET old.invalid_at = still,
    old.verification_status = CASE
      WHEN still IS NULL AND old:Pattern AND old.verification_status = 'invalidated' THEN 'unverified'
      ELSE old.verification_status END
WITH collect(old) AS changed, collect(CASE WHEN still IS NULL THEN old END) AS valid_again
CALL (valid_again) {
  UNWIND valid_again AS e
  MATCH (e)-[:EXEMPLIFIES]->(p:Pattern)
  WHERE p.mind = $mind AND coalesce(p.status, 'active') = 'active'
    AND p.verification_status = 'invalidated' AND p.invalid_at IS NOT NULL
    AND NOT EXISTS { MATCH (other:Memory)-[:SUPERSEDES|CONTRADICTS]->(p) WHERE NOT other.uid IN $uids AND NOT other:Pattern }
  WITH DISTINCT p
  SET p.invalid_at = null, p.verification_status = 'unverified'
  RETURN count(p) AS patterns
}
CALL (changed) {
  UNWIND changed AS e
  MATCH (e)-[:EXEMPLIFIES]->(p:Pattern)
  WHERE p.mind = $mind
  WITH DISTINCT p
  SET p.stale_since = CASE WHEN p.stale_since IS NULL OR p.stale_since > datetime() THEN datetime() ELSE p.stale_since END
  RETURN count(p) AS stale
}
RETURN [e IN valid_again | e.id] AS revalidated
