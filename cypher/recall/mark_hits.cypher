// mode: write
// params: mind, uids
// Count one hit on each recalled memory and note when (the digests read hits and last_hit_at).
UNWIND $uids AS uid
MATCH (n:Memory {uid: uid})
WHERE n.mind = $mind
SET n.hits = coalesce(n.hits, 0) + 1, n.last_hit_at = datetime()
RETURN count(n) AS written
