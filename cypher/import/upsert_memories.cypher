// mode: write
// params: mind, rows
// Upsert memory nodes of one mind; idempotent on uid. row: {uid, id, label, props, dates}; dates holds ISO-8601 text.
// A new node, or one whose given properties differ from the stored ones, is flagged
// embedding_pending for the embedding pass (which re-embeds only when its text changed).
// Returns how many rows were written, how many of them made a new node (a stored memory always
// has its mind: only a node this MERGE made has none yet) and how many changed a stored one (a
// given property or date-time it lacked or held otherwise); the rest were there unchanged.
UNWIND $rows AS row
MERGE (n:Memory {uid: row.uid})
  ON CREATE SET n.created_at = datetime()
WITH n, row, n.mind IS NULL AS created,
     any(k IN keys(row.props) WHERE n[k] IS NULL OR n[k] <> row.props[k]) AS differs
WITH n, row, created, differs,
     NOT created AND (differs OR any(k IN keys(row.dates) WHERE n[k] IS NULL OR n[k] <> datetime(row.dates[k]))) AS changed
SET n.embedding_pending = CASE WHEN created OR n.embedding_pending OR differs THEN true END
SET n += row.props, n.mind = $mind, n.id = row.id
SET n:$(row.label)
FOREACH (key IN keys(row.dates) | SET n[key] = datetime(row.dates[key]))
RETURN count(n) AS written, count(CASE WHEN created THEN 1 END) AS created,
       count(CASE WHEN changed THEN 1 END) AS changed
