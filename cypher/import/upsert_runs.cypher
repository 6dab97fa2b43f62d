// mode: write
// params: mind, rows
// Upsert run nodes (DreamRun, WanderSession, RuminationRun) of one mind; idempotent on uid.
// row: {uid, id, label, props, dates}; dates holds ISO-8601 text stored as DateTime. Returns
// the counts import/upsert_memories returns (written, created, changed).
UNWIND $rows AS row
MERGE (n:Run {uid: row.uid})
  ON CREATE SET n.created_at = datetime()
WITH n, row, n.mind IS NULL AS created
WITH n, row, created,
     NOT created AND (any(k IN keys(row.props) WHERE n[k] IS NULL OR n[k] <> row.props[k])
       OR any(k IN keys(row.dates) WHERE n[k] IS NULL OR n[k] <> datetime(row.dates[k]))) AS changed
SET n += row.props, n.mind = $mind, n.id = row.id
SET n:$(row.label)
FOREACH (key IN keys(row.dates) | SET n[key] = datetime(row.dates[key]))
RETURN count(n) AS written, count(CASE WHEN created THEN 1 END) AS created,
       count(CASE WHEN changed THEN 1 END) AS changed
