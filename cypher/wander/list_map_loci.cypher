// mode: read
// params: mind, session_id
// The loci of a session's map (graphmind wander map): those the session VISITED, those its
// trace steps from (the seed among them) and its seed locus, with the embedding to project
// and the session's visit count (0 for a locus only stepped from). Starts from the session
// node: no scan of the mind.
MATCH (s:Run {uid: $mind + ':' + $session_id})
WHERE s:WanderSession
CALL (s) {
  MATCH (s)-[:VISITED]->(l:Locus)
  WHERE l.mind = $mind
  RETURN l
  UNION
  MATCH (s)-[:VISITED]->(:Locus)<-[t:STEP]-(l:Locus)
  WHERE t.session = $session_id AND l.mind = $mind
  RETURN l
  UNION
  MATCH (l:Memory {uid: $mind + ':' + s.seed_locus_id})
  WHERE l:Locus
  RETURN l
}
OPTIONAL MATCH (s)-[v:VISITED]->(l)
RETURN l.id AS id, l.concept AS concept, coalesce(l.domains, []) AS domains,
       l.embedding AS embedding, coalesce(v.visits, 0) AS visits, l.source_type AS source_type
ORDER BY id
