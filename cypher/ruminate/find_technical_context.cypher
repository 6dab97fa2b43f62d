// mode: read
// params: mind, uids, limit
// The Dreamer's query_technical_context: the given technical contexts, the most recurrent first.
UNWIND $uids AS uid
MATCH (n:Memory {uid: uid})
WHERE n.mind = $mind AND n:Technical_Context
RETURN n.id AS id, 'Technical_Context' AS label, n {.*, embedding: null} AS props
ORDER BY coalesce(n.recurrence_count, 0) DESC
LIMIT $limit
