// mode: write
// params: mind, run, findings
// Record one rumination: its RuminationRun node, a Finding per step and per Context Object
// section, (:RuminationRun)-[:FOUND]->(:Finding) and (:Finding)-[:CITES]->(:Memory) to every
// memory it drew on. $run: {uid, id, props}; finding: {uid, id, props, cites: [uid]}.
// Findings are memories (they get embedded and recalled); they are never energised or cited
// by later ruminations' coverage (ruminate/get_coverage).
MERGE (r:Run {uid: $run.uid})
  ON CREATE SET r.created_at = datetime()
SET r:RuminationRun, r += $run.props, r.mind = $mind, r.id = $run.id
WITH r
UNWIND $findings AS f
MERGE (n:Memory {uid: f.uid})
  ON CREATE SET n.created_at = datetime(), n.embedding_pending = true
SET n:Finding, n += f.props, n.mind = $mind, n.id = f.id
MERGE (r)-[:FOUND]->(n)
WITH n, f
UNWIND f.cites AS cited
MATCH (m:Memory {uid: cited})
WHERE m.mind = $mind
MERGE (n)-[:CITES]->(m)
RETURN count(*) AS cites
