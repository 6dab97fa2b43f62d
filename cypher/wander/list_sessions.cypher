// mode: read
// params: mind, status, offset, limit
// The wander sessions of a mind (all, or those with $status), newest first: $limit of them
// after skipping $offset (paging), with how many there are in all.
MATCH (s:Run)
WHERE s.mind = $mind AND s:WanderSession AND ($status IS NULL OR s.status = $status)
WITH s ORDER BY s.created_at DESC, s.id
WITH collect(s) AS found
UNWIND found[$offset..$offset + $limit] AS s
RETURN s.id AS id, properties(s) AS props, size(found) AS total
