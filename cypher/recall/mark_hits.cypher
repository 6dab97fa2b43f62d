// mode: write
// params: mind, uids
// Count one hit on each recalled memory, note when (the digests read hits and last_hit_at), and
// return the memories (without their embeddings) so recall needs no second round trip. The
// memories are locked in uid order, whatever order $uids has: concurrent recalls of the same
// memories then wait for each other instead of deadlocking.
UNWIND $uids AS uid
WITH DISTINCT uid ORDER BY uid
MATCH (n:Memory {uid: uid})
WHERE n.mind = $mind
SET n.hits = coalesce(n.hits, 0) + 1, n.last_hit_at = datetime()
RETURN n.uid AS uid, [l IN labels(n) WHERE l <> 'Memory'][0] AS label, n {.*, embedding: null} AS props
