// mode: read
// params: mind, id, offset, limit
// The loci of one wander session: those it made (session_id = $id: its seed, injected concepts,
// possibilities) and the mind's memory loci it visited, most visited first, then by concept;
// $limit of them after skipping $offset, with how many there are in all.
MATCH (s:Run {uid: $mind + ':' + $id})
WHERE s:WanderSession
CALL (s) {
  MATCH (l:Memory)
  USING INDEX l:Memory(mind)
  WHERE l.mind = $mind AND l:Locus AND l.session_id = $id
  RETURN l
  UNION
  MATCH (s)-[:VISITED]->(l:Locus)
  WHERE l.mind = $mind
  RETURN l
}
OPTIONAL MATCH (s)-[v:VISITED]->(l)
WITH l, coalesce(v.visits, 0) AS visits
ORDER BY visits DESC, l.concept, l.id
WITH collect({id: l.id, concept: l.concept, source_type: l.source_type, domains: coalesce(l.domains, []),
              tier: l.tier, own: l.session_id = $id, visits: visits}) AS found
UNWIND found[$offset..$offset + $limit] AS locus
RETURN locus, size(found) AS total
