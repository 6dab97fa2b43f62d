// mode: write
// params: mind, rows
// Upsert run nodes (DreamRun, WanderSession, RuminationRun) of one mind; idempotent on uid.
UNWIND $rows AS row
MERGE (n:Run {uid: row.uid})
  ON CREATE SET n.created_at = datetime()
SET n += row.props, n.mind = $mind, n.id = row.id
SET n:$(row.label)
RETURN count(n) AS written
