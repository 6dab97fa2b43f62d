// mode: write
// params: mind, session_id, step
// One step of a walk: (from)-[:STEP {session, step_number, ...}]->(to), the session's VISITED
// edge to `to` (visits counted; `to` keeps what the dwelling rated it), the Residue with OF_STEP edges to both loci and DRAWS_ON
// edges to the memories it used, and the edges the step found between the two loci:
// ADJACENT_TO {distance, strength}, BRIDGES_TO {bridge_type, strength}, CONTRADICTS {tension}.
// $step: {from, to, trace: {...}, residue: {uid, id, props}, memories: [uid],
//         adjacent: {distance, strength} | null, bridge: {bridge_type, strength} | null,
//         tension: text | null, interestingness, actionability, loaded: [uid]}
// Each memory the dwelling had in its context ($step.loaded) counts a hit (the digests read them).
MATCH (s:Run {uid: $mind + ':' + $session_id})
MATCH (a:Memory {uid: $mind + ':' + $step.from}), (b:Memory {uid: $mind + ':' + $step.to})
WHERE a:Locus AND b:Locus
CREATE (a)-[t:STEP]->(b)
SET t = $step.trace, t.session = $session_id, t.created_at = datetime()
MERGE (s)-[v:VISITED]->(b)
  ON CREATE SET v.visits = 0, v.first_step = $step.trace.step_number
SET v.visits = v.visits + 1, v.last_step = $step.trace.step_number,
    b.visit_count = coalesce(b.visit_count, 0) + 1, b.last_visited = datetime(),
    b.interestingness = $step.interestingness, b.actionability = $step.actionability
CREATE (r:Memory:Residue {uid: $step.residue.uid})
SET r += $step.residue.props, r.id = $step.residue.id, r.mind = $mind, r.created_at = datetime(),
    r.embedding_pending = true
CREATE (r)-[:OF_STEP {role: 'from'}]->(a)
CREATE (r)-[:OF_STEP {role: 'to'}]->(b)
WITH a, b, r
CALL () {
  UNWIND $step.loaded AS uid
  MATCH (m:Memory {uid: uid})
  WHERE m.mind = $mind
  SET m.hits = coalesce(m.hits, 0) + 1, m.last_hit_at = datetime()
}
CALL (r) {
  UNWIND $step.memories AS uid
  MATCH (m:Memory {uid: uid})
  WHERE m.mind = $mind
  MERGE (r)-[:DRAWS_ON]->(m)
}
CALL (a, b) {
  WITH a, b WHERE $step.adjacent IS NOT NULL
  MERGE (a)-[e:ADJACENT_TO]->(b)
  SET e += $step.adjacent
}
CALL (a, b) {
  WITH a, b WHERE $step.bridge IS NOT NULL
  MERGE (a)-[e:BRIDGES_TO]->(b)
  SET e += $step.bridge
}
CALL (a, b) {
  WITH a, b WHERE $step.tension IS NOT NULL
  MERGE (a)-[e:CONTRADICTS]->(b)
  SET e.tension = $step.tension
}
RETURN r.id AS residue
