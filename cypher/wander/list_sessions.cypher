// mode: read
// params: mind, status
// The wander sessions of a mind (all, or those with $status), newest first.
MATCH (s:Run)
WHERE s.mind = $mind AND s:WanderSession AND ($status IS NULL OR s.status = $status)
RETURN s.id AS id, properties(s) AS props
ORDER BY s.created_at DESC, s.id
