// mode: write
// params: mind, id, state
// Keep the REPL variables of a wander session's last dwelling ($state: JSON text).
MATCH (s:Run {uid: $mind + ':' + $id})
WHERE s:WanderSession
SET s.repl_state = $state
RETURN s.id AS id
