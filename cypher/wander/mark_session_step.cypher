// mode: write
// params: mind, id, expected, changes
// Take a session one step on, only if it is active and still at step $expected (else no row:
// someone else moved it); $changes: current_locus_id, cloud_spent_cents, calls, crystals.
MATCH (s:Run {uid: $mind + ':' + $id})
WHERE s:WanderSession AND s.status = 'active' AND coalesce(s.steps_completed, 0) = $expected
SET s += $changes, s.steps_completed = $expected + 1, s.last_step_at = datetime(), s.updated_at = datetime()
RETURN s.steps_completed AS steps_completed
