// mode: read
// params: mind
// The mind's Identity node (one per mind), for the Context Object's "Who I Am Right Now".
// A scan of the Identity label: it holds one node per mind.
MATCH (n:Identity)
WHERE n.mind = $mind
RETURN n.id AS id, n {.*, embedding: null} AS props
ORDER BY n.id
LIMIT 1
