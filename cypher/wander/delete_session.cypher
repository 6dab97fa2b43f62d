// mode: write
// params: mind, id
// Delete a wander session with what belongs to it alone: the loci its walk generated, its
// residues, the resonances it first saw and its warm memory (session_id = $id), and its trace
// (STEP edges of the session). The mind's memories and memory loci (shared by every session,
// no session_id), other sessions' resonances and the crystals (insights, with their memory
// evidence) stay.
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
  WHERE n.mind = $mind AND n.session_id = $id AND (n:Locus OR n:Residue OR n:Resonance OR n:WarmMemory)
  DETACH DELETE n
  RETURN count(n) AS removed
}
DETACH DELETE s
RETURN traces, removed
