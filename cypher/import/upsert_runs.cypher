// mode: write
// params: mind, rows
// Upsert run nodes (DreamRun, WanderSession, RuminationRun) of one mind; idempotent on uid.
// row: {uid, id, label, props, dates}; dates holds ISO-8601 text stored as DateTime.
UNWIND $rows AS row
MERGE (n:Run {uid: row.uid})
  ON CREATE SET n.created_at = datetime()
SET n += row.props, n.mind = $mind, n.id = row.id
SET n:$(row.label)
FOREACH (key IN keys(row.dates) | SET n[key] = datetime(row.dates[key]))
RETURN count(n) AS written
