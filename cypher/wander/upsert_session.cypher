// mode: write
// params: mind, session
// Create or update a wander session; idempotent on uid. $session: {uid, id, props}.
MERGE (s:Run {uid: $session.uid})
  ON CREATE SET s.created_at = datetime()
SET s:WanderSession, s += $session.props, s.mind = $mind, s.id = $session.id, s.updated_at = datetime()
RETURN s.id AS id, properties(s) AS props
