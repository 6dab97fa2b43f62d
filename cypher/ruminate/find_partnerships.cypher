// mode: read
// params: mind, uids, limit, sender
// The Dreamer's query_partnerships: the given partnerships of one mind, the sender's first, then by trust.
UNWIND $uids AS uid
MATCH (n:Memory {uid: uid})
WHERE n.mind = $mind AND n:Partnership
RETURN n.id AS id, 'Partnership' AS label, n {.*, embedding: null} AS props
ORDER BY toLower(coalesce(n.partner_name, '')) = toLower(coalesce($sender, '')) DESC,
         n.trust_level DESC
LIMIT $limit
