// mode: read
// params: mind, ids, per_locus
// The memories a dwelling may use for loci $ids: those each locus refers to, then their
// neighbours in the mind's memory (not wander's working nodes), at most $per_locus a locus,
// nearest first, by locus.
UNWIND $ids AS locus_id
MATCH (l:Memory {uid: $mind + ':' + locus_id})-[:REFERS_TO]->(m:Memory)
WHERE m.mind = $mind
CALL (m) {
  RETURN m AS memory, 0 AS hops
  UNION
  MATCH (m)--(x:Memory)
  WHERE x.mind = $mind AND NOT (x:Locus OR x:Residue OR x:Resonance OR x:WarmMemory OR x:Crystal)
  RETURN x AS memory, 1 AS hops
}
WITH locus_id, memory, min(hops) AS hops
ORDER BY locus_id, hops, memory.id
WITH locus_id, collect(memory)[0..$per_locus] AS kept
UNWIND kept AS memory
RETURN locus_id, memory.id AS id, [x IN labels(memory) WHERE x <> 'Memory'][0] AS label,
       memory {.*, embedding: null} AS props
