// mode: read
// params: mind
// How many nodes of each typed label the mind holds.
MATCH (n:Memory|Run)
WHERE n.mind = $mind
UNWIND [l IN labels(n) WHERE NOT l IN ['Memory', 'Run']] AS label
RETURN label, count(*) AS count
ORDER BY label
