// mode: read
// params: mind
// The active abstractions of one mind (the current ladder) with the ids they subsume.
MATCH (a:Abstraction)
WHERE a.mind = $mind AND coalesce(a.status, 'active') = 'active'
RETURN a.id AS id, a.level AS level, a.name AS name, coalesce(a.generalization, '') AS generalization,
       COLLECT { MATCH (a)-[:SUBSUMES]->(m) RETURN m.id ORDER BY m.id } AS members
ORDER BY level, id
