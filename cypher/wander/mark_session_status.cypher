// mode: write
// params: mind, id, expected, status, reason
// Move a session from status $expected to $status (the caller checked the transition); no row
// when its status changed meanwhile. $reason is kept as paused_reason when pausing.
MATCH (s:Run {uid: $mind + ':' + $id})
WHERE s:WanderSession AND s.status = $expected
SET s.status = $status, s.updated_at = datetime(),
    s.paused_reason = CASE WHEN $status = 'paused' THEN $reason END,
    s.completed_at = CASE WHEN $status IN ['completed', 'abandoned'] THEN datetime() ELSE s.completed_at END
RETURN s.id AS id, properties(s) AS props
