// mode: read
// params: mind
// Neo4j Browser (graphmind browse): the latest rumination of a mind, its findings and the
// memories each finding cites.
MATCH (r:RuminationRun)
WHERE r.mind = $mind
WITH r ORDER BY r.created_at DESC LIMIT 1
MATCH p = (r)-[:FOUND]->(:Finding)-[:CITES]->(:Memory)
RETURN p
