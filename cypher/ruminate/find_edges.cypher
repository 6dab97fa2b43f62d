// mode: read
// params: mind, uid, limit
// The Dreamer's follow_edges: the memories linked to one memory of the mind (either direction),
// with the relationship's type and direction. Findings of ruminations are left out. The hint
// keeps the planner from starting at a scan of the other side while the store is small.
MATCH (n:Memory {uid: $uid})-[r]-(m:Memory)
USING INDEX n:Memory(uid)
WHERE n.mind = $mind AND m.mind = $mind AND NOT m:Finding
RETURN m.id AS id, [l IN labels(m) WHERE l <> 'Memory'][0] AS label, m {.*, embedding: null} AS props,
       type(r) AS rel, CASE WHEN startNode(r) = n THEN 'out' ELSE 'in' END AS direction
ORDER BY rel, id
LIMIT $limit
