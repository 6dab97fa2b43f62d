// mode: write
// params: mind, uids
// changes: counters
// Count one hit on each memory a digest, a rumination or a wander step read, note when (the
// digests read hits and last_hit_at), and return the memories (without their embeddings). The
// memories are locked in uid order, whatever order $uids has: concurrent counts of the same
// memories then wait for each other instead of deadlocking.
UNWIND $uids AS uid
WITH DISTINCT uid ORDER BY uid
MATCH (n:Memory {uid: uid})
WHERE n.mind = $mind
SET n.hits = coalesce(n.hits, 0) + 1, n.last_hit_at = datetime()
RETURN n.uid AS uid, [l IN labels(n) WHERE l <> 'Memory'][0] AS label, n {.*, embedding: null} AS props
