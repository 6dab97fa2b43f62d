// mode: read
// params: mind, session_id, status, min_confidence, offset, limit
// One page of the mind's crystals (or one session's), newest first, those with $status (any when
// null) and a confidence of at least $min_confidence: $limit of them after skipping $offset, each
// with its evidence ids, and how many match in all.
MATCH (c:Memory)
WHERE c.mind = $mind AND c:Crystal AND ($session_id IS NULL OR c.session_id = $session_id)
  AND ($status IS NULL OR c.status = $status) AND coalesce(c.confidence, 0.0) >= $min_confidence
WITH c ORDER BY c.created_at DESC, c.id
WITH collect(c) AS found
UNWIND found[$offset..$offset + $limit] AS c
OPTIONAL MATCH (c)-[:EVIDENCED_BY]->(e:Memory)
WITH c, size(found) AS total, collect(e.id) AS evidence
RETURN c.id AS id, c {.*, embedding: null} AS props, evidence, total
ORDER BY c.created_at DESC, c.id
