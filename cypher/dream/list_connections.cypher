// mode: read
// params: mind
// The cross-connections between one mind's patterns.
MATCH (a:Pattern)-[c:CONNECTS]->(b:Pattern)
WHERE a.mind = $mind AND b.mind = $mind
RETURN a.id AS from_id, b.id AS to_id, c.kind AS kind, c.strength AS strength, c.rationale AS rationale
ORDER BY from_id, to_id
