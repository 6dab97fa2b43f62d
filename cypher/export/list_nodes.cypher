// mode: read
// params: mind, after, limit
// One page of a mind's nodes in id order, with their typed label and stored properties.
MATCH (n:Memory|Run)
WHERE n.mind = $mind AND n.id > $after
RETURN n.id AS id, [l IN labels(n) WHERE NOT l IN ['Memory', 'Run']][0] AS label,
       properties(n) AS props
ORDER BY id
LIMIT $limit
