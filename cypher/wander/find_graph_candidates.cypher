// mode: read
// params: mind, session_id, current, limit
// Adjacencies found through the graph from the current locus (and the memories it refers to):
// - cross_domain_bridge: loci in other domains whose memories are linked to the current
//   locus's memories (the relationship type is the bridge), or earlier BRIDGES_TO edges;
// - analogy: MEMORY loci in other domains standing for a memory of the same type as the
//   current locus's (its role: the label of the memory it stands for or came from first);
// - tension: loci across a CONTRADICTS edge (between loci or between their memories), and
//   failed attempts or constraints linked to the current locus's memories.
// Only hot loci of the session's idea space; at most $limit per strategy, in a stable order (ties by
// concept: ids of session loci hash their session, and a seed must walk the same in any session).
MATCH (c:Memory {uid: $mind + ':' + $current})
CALL (c) {
  OPTIONAL MATCH (c)-[:REFERS_TO]->(n:Memory)-[r]-(m:Memory)<-[:REFERS_TO]-(l:Locus)
  WHERE n.mind = $mind AND m.mind = $mind AND l.mind = $mind AND m <> n AND type(r) <> 'REFERS_TO'
    AND none(d IN coalesce(l.domains, []) WHERE d IN coalesce(c.domains, []))
  RETURN l, 'cross_domain_bridge' AS strategy, type(r) AS via
  UNION
  OPTIONAL MATCH (c)-[b:BRIDGES_TO]-(l:Locus)
  WHERE l.mind = $mind
  RETURN l, 'cross_domain_bridge' AS strategy, b.bridge_type AS via
  UNION
  OPTIONAL MATCH (l:Locus)
  WHERE l.mind = $mind AND l.role = c.role AND l.source_type = 'MEMORY'
    AND none(d IN coalesce(l.domains, []) WHERE d IN coalesce(c.domains, []))
  RETURN l, 'analogy' AS strategy, l.role AS via
  UNION
  OPTIONAL MATCH (c)-[:REFERS_TO]->(:Memory)-[:CONTRADICTS]-(:Memory)<-[:REFERS_TO]-(l:Locus)
  WHERE l.mind = $mind
  RETURN l, 'tension' AS strategy, 'CONTRADICTS' AS via
  UNION
  OPTIONAL MATCH (c)-[:CONTRADICTS]-(l:Locus)
  WHERE l.mind = $mind
  RETURN l, 'tension' AS strategy, 'CONTRADICTS' AS via
  UNION
  OPTIONAL MATCH (c)-[:REFERS_TO]->(n:Memory)--(m:Failed_Attempt|Constraint)<-[:REFERS_TO]-(l:Locus)
  WHERE n.mind = $mind AND m.mind = $mind AND l.mind = $mind
  RETURN l, 'tension' AS strategy, [x IN labels(m) WHERE x <> 'Memory'][0] AS via
}
WITH c, l, strategy, via
WHERE l IS NOT NULL AND l <> c AND l.embedding IS NOT NULL AND coalesce(l.tier, 'hot') = 'hot'
  AND (l.session_id IS NULL OR l.session_id = $session_id)
WITH c, l, strategy, min(via) AS via
WITH c, l, strategy, via, 2 * vector.similarity.cosine(l.embedding, c.embedding) - 1 AS cosine
ORDER BY strategy, cosine DESC, l.concept, l.id
WITH strategy, collect({l: l, via: via, cosine: cosine})[0..$limit] AS kept
UNWIND kept AS k
WITH k.l AS l, k.cosine AS cosine, strategy, k.via AS via
RETURN l.id AS id, l {.*, embedding: null} AS props, l.embedding AS embedding, cosine, strategy, via
