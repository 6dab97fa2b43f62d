// mode: read
// params: mind, session_id
// How often the session visited each locus; the crystals' sources (resonances, loci) so far.
MATCH (s:Run {uid: $mind + ':' + $session_id})
OPTIONAL MATCH (s)-[v:VISITED]->(l:Locus)
WITH s, collect({id: l.id, visits: v.visits}) AS visits
OPTIONAL MATCH (c:Crystal)-[:EVIDENCED_BY]->(e:Memory)
WHERE c.mind = $mind AND (e:Resonance OR e:Locus)
RETURN [x IN visits WHERE x.id IS NOT NULL] AS visits, collect(DISTINCT e.id) AS crystallized
