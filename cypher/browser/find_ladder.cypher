// mode: read
// params: mind
// Neo4j Browser (graphmind browse): a mind's abstraction ladder, from its top abstractions down
// to the patterns and one example experience of each.
MATCH p = (top:Abstraction)-[:SUBSUMES*1..3]->(:Pattern)
WHERE top.mind = $mind AND top.status = 'active' AND NOT EXISTS { (:Abstraction {status: 'active'})-[:SUBSUMES]->(top) }
RETURN p
