// mode: read
// params: mind, uids
// The recalled memories of one mind, by uid, without their embeddings.
UNWIND $uids AS uid
MATCH (n:Memory {uid: uid})
WHERE n.mind = $mind
RETURN n.uid AS uid, n.id AS id, [l IN labels(n) WHERE l <> 'Memory'][0] AS label,
       n {.*, embedding: null} AS props
