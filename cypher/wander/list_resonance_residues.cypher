// mode: read
// params: mind, ids, limit
// The latest residues that support resonances $ids (their evidence for a crystal).
UNWIND $ids AS rid
MATCH (res:Memory {uid: $mind + ':' + rid})-[:SUPPORTED_BY]->(r:Residue)
WHERE r.mind = $mind
WITH DISTINCT r
ORDER BY r.created_at DESC, r.id
LIMIT $limit
RETURN r.id AS id, r {.*, embedding: null} AS props
