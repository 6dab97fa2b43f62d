// mode: read
// params: mind, id
// The REPL variables a wander session's last dwelling kept (JSON text; null before any).
MATCH (s:Run {uid: $mind + ':' + $id})
WHERE s:WanderSession
RETURN s.repl_state AS state
