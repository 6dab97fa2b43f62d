// mode: read
// params: mind, id
// Walk one abstraction down the ladder to the experiences behind it: for each pattern below
// it, the path of abstractions, the experiences that exemplify the pattern (count and a
// sample). What a researcher does by hand in Neo4j Browser.
MATCH (top:Memory {uid: $mind + ':' + $id})
WHERE top:Abstraction
MATCH path = (top)-[:SUBSUMES*1..3]->(p:Pattern)
WHERE all(a IN nodes(path)[..-1] WHERE a.status = 'active')
RETURN [a IN nodes(path)[..-1] | a.level] AS levels, p.id AS pattern,
       COUNT { (e:Experience)-[:EXEMPLIFIES]->(p) } AS experiences,
       COLLECT { MATCH (e:Experience)-[:EXEMPLIFIES]->(p) RETURN e.id ORDER BY e.id LIMIT 3 } AS sample
ORDER BY pattern
