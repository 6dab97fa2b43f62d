// mode: read
// params: mind, ids
// Patterns by id with their ladder path (the active abstractions above, level 2 up) and their
// examples (the experiences they cite, from the EXEMPLIFIES edges).
UNWIND $ids AS pid
MATCH (p:Memory {uid: $mind + ':' + pid})
WHERE p:Pattern
OPTIONAL MATCH (l2:Abstraction)-[:SUBSUMES]->(p) WHERE l2.status = 'active'
OPTIONAL MATCH (l3:Abstraction)-[:SUBSUMES]->(l2) WHERE l3.status = 'active'
OPTIONAL MATCH (l4:Abstraction)-[:SUBSUMES]->(l3) WHERE l4.status = 'active'
RETURN p.id AS id, p {.name, .description, .conditions, .actions, .success_rate, .usage_count,
         .confidence, .verification_status, .status, .pattern_type} AS pattern,
       [a IN [l2, l3, l4] WHERE a IS NOT NULL | a {.id, .level, .name, .generalization}] AS ladder,
       COLLECT { MATCH (e:Experience)-[:EXEMPLIFIES]->(p) WHERE e.id IN coalesce(p.examples, [])
                 RETURN e {.id, .description, .outcome} AS e ORDER BY e.id } AS examples
