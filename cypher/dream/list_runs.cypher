// mode: read
// params: mind
// The dream runs of one mind, newest first.
MATCH (r:DreamRun)
WHERE r.mind = $mind
RETURN r.id AS id, properties(r) AS props
ORDER BY r.started_at DESC
