// mode: write
// params: mind, uids
// Count one hit on each recalled memory, note when (the digests read hits and last_hit_at), and
// return the memories (without their embeddings) so recall needs no second round trip.
UNWIND $uids AS uid
MATCH (n:Memory {uid: uid})
WHERE n.mind = $mind
SET n.hits = coalesce(n.hits, 0) + 1, n.last_hit_at = datetime()
RETURN n.uid AS uid, [l IN labels(n) WHERE l <> 'Memory'][0] AS label, n {.*, embedding: null} AS props
