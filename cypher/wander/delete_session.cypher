// mode: write
// params: mind, id
// Delete a wander session with what belongs to it alone: the loci its walk generated, its
// residues and warm memory (session_id = $id), and its trace (STEP edges of the session).
// Cross-session resonances, crystals and the mind's own memories stay.
MATCH (s:Run {uid: $mind + ':' + $id})
WHERE s:WanderSession
CALL (s) {
  MATCH (a:Memory)-[t:STEP]->()
  WHERE a.mind = $mind AND t.session = $id
  DELETE t
  RETURN count(t) AS traces
}
CALL (s) {
  MATCH (n:Memory)
  WHERE n.mind = $mind AND n.session_id = $id AND (n:Locus OR n:Residue OR n:WarmMemory)
  DETACH DELETE n
  RETURN count(n) AS removed
}
DETACH DELETE s
RETURN traces, removed
