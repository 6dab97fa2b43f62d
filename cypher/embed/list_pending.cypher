// mode: read
// params: mind, limit
// Memories of one mind flagged for the embedding pass, with the properties their text is made
// from (the stored embedding itself is left out).
MATCH (n:Memory)
WHERE n.mind = $mind AND n.embedding_pending = true
RETURN n.uid AS uid, [l IN labels(n) WHERE l <> 'Memory'][0] AS label,
       n {.*, embedding: null} AS props
LIMIT $limit
