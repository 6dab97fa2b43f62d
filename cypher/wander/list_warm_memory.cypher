// mode: read
// params: mind, session_id
// A session's warm memory that has not expired, newest first.
MATCH (s:Run {uid: $mind + ':' + $session_id})
MATCH (w:Memory)
USING INDEX w:Memory(mind)
WHERE w.mind = $mind AND w:WarmMemory AND w.session_id = $session_id
  AND (w.expires_at IS NULL OR w.expires_at > datetime())
RETURN w.id AS id, w.cluster_type AS cluster_type, w.content AS content, w.strength AS strength
ORDER BY w.created_at DESC, w.id
