// mode: read
// params: mind, id
// What one wander session holds: its own loci, residues, resonances and warm memory
// (session_id = $id), the loci it visited, its steps and its crystals. Null when the mind has
// no such session.
MATCH (s:Run {uid: $mind + ':' + $id})
WHERE s:WanderSession
CALL (s) {
  MATCH (n:Memory)
  USING INDEX n:Memory(mind)
  WHERE n.mind = $mind AND n.session_id = $id
  RETURN sum(CASE WHEN n:Locus THEN 1 ELSE 0 END) AS loci,
         sum(CASE WHEN n:Residue THEN 1 ELSE 0 END) AS residues,
         sum(CASE WHEN n:Resonance THEN 1 ELSE 0 END) AS resonances,
         sum(CASE WHEN n:WarmMemory THEN 1 ELSE 0 END) AS warm_memory,
         sum(CASE WHEN n:Crystal THEN 1 ELSE 0 END) AS crystals
}
CALL (s) {
  OPTIONAL MATCH (s)-[v:VISITED]->(:Locus)
  RETURN count(v) AS visited
}
RETURN loci, residues, resonances, warm_memory, crystals, visited
