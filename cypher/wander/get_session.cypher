// mode: read
// params: mind, id
// One wander session of a mind.
MATCH (s:Run {uid: $mind + ':' + $id})
WHERE s:WanderSession
RETURN s.id AS id, properties(s) AS props
