// mode: read
// params: mind, uids, limit
// The Dreamer's query_conversations, its turns: the given conversation turns of one mind, in the
// order given (the best match of the stimulus first).
UNWIND range(0, size($uids) - 1) AS i
MATCH (n:Memory {uid: $uids[i]})
WHERE n.mind = $mind AND n:Turn
WITH n, i ORDER BY i
RETURN n.id AS id, 'Turn' AS label, n {.*, embedding: null} AS props
LIMIT $limit
