// mode: read
// params: mind, uids, limit
// The Dreamer's query_emotional_state: the given emotional states, the most intense first.
UNWIND $uids AS uid
MATCH (n:Memory {uid: uid})
WHERE n.mind = $mind AND n:Emotional_State
RETURN n.id AS id, 'Emotional_State' AS label, n {.*, embedding: null} AS props
ORDER BY coalesce(n.intensity, 0) DESC
LIMIT $limit
