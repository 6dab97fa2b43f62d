// mode: write
// params: mind, run_uid, rows
// Write the ladder's abstractions; idempotent on uid. row: {uid, id, props, created, members:
// [uid]} → (:Abstraction)-[:SUBSUMES]->(:Pattern|Abstraction) one level down, and
// (:DreamRun)-[:PRODUCED {created}]->(:Abstraction) for the ones this run named.
MATCH (run:DreamRun {uid: $run_uid})
UNWIND $rows AS row
MERGE (a:Memory {uid: row.uid})
  ON CREATE SET a.created_at = datetime(), a.embedding_pending = true
SET a:Abstraction, a += row.props, a.mind = $mind, a.id = row.id, a.status = 'active'
FOREACH (_ IN CASE WHEN row.created THEN [1] ELSE [] END |
  MERGE (run)-[produced:PRODUCED]->(a)
  SET produced.created = true)
WITH a, row
CALL (a, row) {
  UNWIND row.members AS member
  MATCH (m:Memory {uid: member})
  WHERE m.mind = $mind
  MERGE (a)-[:SUBSUMES]->(m)
  RETURN count(m) AS subsumed
}
RETURN count(a) AS written
