// mode: write
// params: mind, run
// Record one forget: $run {uid, id, props} with ids and counts only, never the removed text.
MERGE (r:Run {uid: $run.uid})
  ON CREATE SET r.created_at = datetime()
SET r:ForgetRun, r += $run.props, r.mind = $mind, r.id = $run.id, r.finished_at = datetime()
RETURN r.id AS id
