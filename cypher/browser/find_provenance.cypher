// mode: read
// params: mind, id
// Neo4j Browser (graphmind browse): why a pattern or crystal exists: the experiences it was
// drawn from, the memories that evidence it, what it superseded, the run that made it and the
// abstractions above it.
MATCH (x:Memory {uid: $mind + ':' + $id})
OPTIONAL MATCH evidence = (x)-[:EVIDENCED_BY|EXEMPLIFIES|SUPERSEDED_BY|DRAWS_ON]-(:Memory)
OPTIONAL MATCH made = (:Run)-[:PRODUCED]->(x)
OPTIONAL MATCH above = (:Abstraction)-[:SUBSUMES]->(x)
RETURN x, collect(DISTINCT evidence) AS evidence, collect(DISTINCT made) AS made, collect(DISTINCT above) AS above
