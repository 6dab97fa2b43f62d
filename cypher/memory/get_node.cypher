// mode: read
// params: mind, id
// One node of a mind by id, with its typed label and properties (no row if absent).
OPTIONAL MATCH (memory:Memory {uid: $mind + ':' + $id})
OPTIONAL MATCH (run:Run {uid: $mind + ':' + $id})
WITH coalesce(memory, run) AS n
WHERE n IS NOT NULL
RETURN [l IN labels(n) WHERE NOT l IN ['Memory', 'Run']][0] AS label, properties(n) AS props
