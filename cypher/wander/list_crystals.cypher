// mode: read
// params: mind, session_id
// The mind's crystals (or one session's), newest first, with their evidence ids.
MATCH (c:Memory)
WHERE c.mind = $mind AND c:Crystal AND ($session_id IS NULL OR c.session_id = $session_id)
OPTIONAL MATCH (c)-[:EVIDENCED_BY]->(e:Memory)
WITH c, collect(e.id) AS evidence
RETURN c.id AS id, c {.*, embedding: null} AS props, evidence
ORDER BY c.created_at DESC, c.id
