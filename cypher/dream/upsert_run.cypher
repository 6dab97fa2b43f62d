// mode: write
// params: mind, run
// Record a dream run (status running, completed, failed or interrupted); idempotent on uid.
// $run: {uid, id, props, dates}; dates holds ISO-8601 text.
MERGE (r:Run {uid: $run.uid})
  ON CREATE SET r.created_at = datetime()
SET r:DreamRun, r += $run.props, r.mind = $mind, r.id = $run.id
FOREACH (key IN keys($run.dates) | SET r[key] = datetime($run.dates[key]))
RETURN r.id AS id
