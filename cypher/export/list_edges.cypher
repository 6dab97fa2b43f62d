// mode: read
// params: mind, after, limit
// The outgoing relationships of one page of a mind's nodes (paged by source id).
MATCH (a:Memory|Run)
WHERE a.mind = $mind AND a.id > $after
WITH a ORDER BY a.id LIMIT $limit
OPTIONAL MATCH (a)-[r]->(b)
WHERE b.mind = $mind
RETURN a.id AS from, type(r) AS rel, b.id AS to, properties(r) AS props
ORDER BY from, rel, to
