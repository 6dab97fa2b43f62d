// mode: read
// params: mind
// Every relationship between two nodes of a mind, in (from, type, to) order (streamed).
MATCH (a:Memory|Run)-[r]->(b)
WHERE a.mind = $mind AND b.mind = $mind
RETURN a.id AS from, type(r) AS rel, b.id AS to, properties(r) AS props
ORDER BY from, rel, to
