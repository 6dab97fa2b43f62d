// mode: read
// params: mind, uid, limit
// The Dreamer's follow_edges: the memories linked to one memory of the mind (either direction),
// with the relationship's type and direction. Findings of ruminations are left out.
MATCH (n:Memory {uid: $uid})-[r]-(m:Memory)
WHERE n.mind = $mind AND m.mind = $mind AND NOT m:Finding
RETURN m.id AS id, [l IN labels(m) WHERE l <> 'Memory'][0] AS label, m {.*, embedding: null} AS props,
       type(r) AS rel, CASE WHEN startNode(r) = n THEN 'out' ELSE 'in' END AS direction
ORDER BY rel, id
LIMIT $limit
