// mode: read
// params: mind, session_id
// What a session's map draws over its loci (graphmind wander map), in one row:
// steps: [from_id, to_id] pairs in step order; crystal_loci: the loci the session's crystals
// are evidenced by or came from (source_locus_id); resonance_clusters: each resonance a
// residue of the session supports, with the loci those residues stepped to.
MATCH (s:Run {uid: $mind + ':' + $session_id})
WHERE s:WanderSession
CALL (s) {
  MATCH (s)-[:VISITED]->(b:Locus)<-[t:STEP]-(a:Locus)
  WHERE t.session = $session_id AND a.mind = $mind AND b.mind = $mind
  WITH a, b, t
  ORDER BY t.step_number
  RETURN collect([a.id, b.id]) AS steps
}
CALL (s) {
  MATCH (c:Memory)
  USING INDEX c:Memory(mind)
  WHERE c.mind = $mind AND c:Crystal AND c.session_id = $session_id
  OPTIONAL MATCH (c)-[:EVIDENCED_BY]->(l:Locus)
  WHERE l.mind = $mind
  WITH collect(l.id) + collect(c.source_locus_id) AS ids
  UNWIND ids AS id
  WITH DISTINCT id
  ORDER BY id
  RETURN collect(id) AS crystal_loci
}
CALL (s) {
  MATCH (s)-[:VISITED]->(l:Locus)<-[:OF_STEP {role: 'to'}]-(res:Residue)<-[:SUPPORTED_BY]-(r:Resonance)
  WHERE res.session_id = $session_id AND res.mind = $mind AND r.mind = $mind AND l.mind = $mind
  WITH r, collect(DISTINCT l.id) AS loci
  ORDER BY r.id
  RETURN collect({id: r.id, themes: coalesce(r.themes, []), strength: coalesce(r.strength, 1.0),
                  status: coalesce(r.status, 'candidate'), loci: loci}) AS resonance_clusters
}
RETURN steps, crystal_loci, resonance_clusters
