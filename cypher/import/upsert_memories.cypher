// mode: write
// params: mind, rows
// Upsert memory nodes of one mind; idempotent on uid. row: {uid, id, label, props, dates}; dates holds ISO-8601 text.
// A new node, or one whose given properties differ from the stored ones, is flagged
// embedding_pending for the embedding pass (which re-embeds only when its text changed).
UNWIND $rows AS row
MERGE (n:Memory {uid: row.uid})
  ON CREATE SET n.created_at = datetime(), n.embedding_pending = true
  ON MATCH SET n.embedding_pending = CASE
    WHEN n.embedding_pending OR any(k IN keys(row.props) WHERE n[k] IS NULL OR n[k] <> row.props[k])
    THEN true END
SET n += row.props, n.mind = $mind, n.id = row.id
SET n:$(row.label)
FOREACH (key IN keys(row.dates) | SET n[key] = datetime(row.dates[key]))
RETURN count(n) AS written
