// mode: read
// params: mind, uids
// The memories recall returns, by uid (without their embeddings); their hits are counted
// behind the recall (graphmind/recall/hit_counter.py), so the hit counts read here leave it out.
UNWIND $uids AS uid
MATCH (n:Memory {uid: uid})
WHERE n.mind = $mind
RETURN n.uid AS uid, [l IN labels(n) WHERE l <> 'Memory'][0] AS label, n {.*, embedding: null} AS props
