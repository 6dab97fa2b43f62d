// mode: read
// params: mind, uids, limit
// The Dreamer's query_failed_attempts: the given failed attempts, the latest first.
UNWIND $uids AS uid
MATCH (n:Memory {uid: uid})
WHERE n.mind = $mind AND n:Failed_Attempt
RETURN n.id AS id, 'Failed_Attempt' AS label, n {.*, embedding: null} AS props
ORDER BY n.timestamp DESC
LIMIT $limit
