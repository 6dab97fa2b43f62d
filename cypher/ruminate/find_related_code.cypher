// mode: read
// params: mind, uids, limit
// The Dreamer's query_related_code: the given code references, the most complex first.
UNWIND $uids AS uid
MATCH (n:Memory {uid: uid})
WHERE n.mind = $mind AND n:Code_Reference
RETURN n.id AS id, 'Code_Reference' AS label, n {.*, embedding: null} AS props
ORDER BY CASE toLower(coalesce(n.complexity, '')) WHEN 'high' THEN 0 WHEN 'medium' THEN 1
              WHEN 'low' THEN 2 ELSE 3 END
LIMIT $limit
