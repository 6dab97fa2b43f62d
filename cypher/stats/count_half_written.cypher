// mode: read
// params: mind
// What a run killed half-way would leave behind if its writes were not atomic; every count
// must be 0: dream runs still 'running', abstractions with no pattern or abstraction below
// them, dreamed patterns with no experience, residues without both loci of their step,
// findings without their rumination, threads marked merged with no thread above them, wander
// sessions whose step count differs from their STEP edges.
CALL () {
  MATCH (r:DreamRun)
  WHERE r.mind = $mind AND r.status = 'running'
  RETURN count(r) AS running_dream_runs
}
CALL () {
  MATCH (a:Abstraction)
  WHERE a.mind = $mind AND a.status = 'active' AND NOT EXISTS { (a)-[:SUBSUMES]->(:Pattern|Abstraction) }
  RETURN count(a) AS abstractions_without_members
}
CALL () {
  MATCH (p:Pattern)
  WHERE p.mind = $mind AND EXISTS { (:DreamRun)-[:PRODUCED]->(p) } AND NOT EXISTS { (:Experience)-[:EXEMPLIFIES]->(p) }
  RETURN count(p) AS patterns_without_experiences
}
CALL () {
  MATCH (r:Residue)
  WHERE r.mind = $mind AND COUNT { (r)-[:OF_STEP]->(:Locus) } < 2
  RETURN count(r) AS orphan_residues
}
CALL () {
  MATCH (f:Finding)
  WHERE f.mind = $mind AND NOT EXISTS { (:RuminationRun)-[:FOUND]->(f) }
  RETURN count(f) AS findings_without_run
}
CALL () {
  MATCH (t:Thread)
  WHERE t.mind = $mind AND t.status = 'merged' AND NOT EXISTS { (t)-[:MERGED_INTO]->(:Thread) }
  RETURN count(t) AS merged_threads_without_target
}
CALL () {
  MATCH (s:WanderSession)
  WHERE s.mind = $mind AND coalesce(s.steps_completed, 0) <> COUNT { ()-[t:STEP]->() WHERE t.session = s.id }
  RETURN count(s) AS sessions_with_missing_steps
}
RETURN running_dream_runs, abstractions_without_members, patterns_without_experiences, orphan_residues,
       findings_without_run, merged_threads_without_target, sessions_with_missing_steps
