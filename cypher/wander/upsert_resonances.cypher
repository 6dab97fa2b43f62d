// mode: write
// params: mind, rows
// Create, reinforce or invalidate resonances. row: {uid, id, props, reinforced_at, residue}:
// reinforced_at (ISO text or null) sets last_reinforced_at; residue (a uid or null) links
// (:Resonance)-[:SUPPORTED_BY]->(:Residue).
UNWIND $rows AS row
MERGE (r:Memory {uid: row.uid})
  ON CREATE SET r.created_at = datetime(), r.embedding_pending = true
SET r:Resonance, r += row.props, r.mind = $mind, r.id = row.id
FOREACH (_ IN CASE WHEN row.reinforced_at IS NULL THEN [] ELSE [1] END |
  SET r.last_reinforced_at = datetime(row.reinforced_at))
WITH r, row
CALL (r, row) {
  MATCH (residue:Memory {uid: row.residue})
  WHERE residue.mind = $mind
  MERGE (r)-[:SUPPORTED_BY]->(residue)
  RETURN count(residue) AS linked
}
RETURN count(r) AS written
