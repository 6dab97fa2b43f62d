// mode: read
// params: mind, session
// Neo4j Browser (graphmind browse): the trace of one wander session, step by step.
MATCH p = (a:Locus)-[s:STEP]->(:Locus)
WHERE a.mind = $mind AND s.session = $session
RETURN p
ORDER BY s.step_number
