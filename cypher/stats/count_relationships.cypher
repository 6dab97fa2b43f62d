// mode: read
// params: mind
// How many relationships of each type join two nodes of the mind.
MATCH (a:Memory|Run)-[r]->(b)
WHERE a.mind = $mind AND b.mind = $mind
RETURN type(r) AS rel, count(*) AS count
ORDER BY rel
