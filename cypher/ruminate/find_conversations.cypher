// mode: read
// params: mind, uids, limit
// The Dreamer's query_conversations: the given conversations of one mind, the latest first.
UNWIND $uids AS uid
MATCH (n:Memory {uid: uid})
WHERE n.mind = $mind AND n:Conversation_Memory
RETURN n.id AS id, 'Conversation_Memory' AS label, n {.*, embedding: null} AS props
ORDER BY n.timestamp DESC
LIMIT $limit
