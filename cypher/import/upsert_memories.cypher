// mode: write
// params: mind, rows
// Upsert memory nodes of one mind; idempotent on uid. row: {uid, id, label, props, dates}; dates holds ISO-8601 text.
UNWIND $rows AS row
MERGE (n:Memory {uid: row.uid})
  ON CREATE SET n.created_at = datetime()
SET n += row.props, n.mind = $mind, n.id = row.id
SET n:$(row.label)
FOREACH (key IN keys(row.dates) | SET n[key] = datetime(row.dates[key]))
RETURN count(n) AS written
