// mode: read
// params: mind
// Every node of a mind in id order, with its typed label and stored properties (streamed).
MATCH (n:Memory|Run)
WHERE n.mind = $mind
RETURN n.id AS id, [l IN labels(n) WHERE NOT l IN ['Memory', 'Run']][0] AS label,
       properties(n) AS props
ORDER BY id
