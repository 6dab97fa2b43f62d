// mode: read
// params: mind, id
// One locus with its embedding and the ids of the memories it refers to.
MATCH (l:Memory {uid: $mind + ':' + $id})
WHERE l:Locus
OPTIONAL MATCH (l)-[:REFERS_TO]->(m:Memory)
WHERE m.mind = $mind
WITH l, collect(m.id) AS refers_to
RETURN l.id AS id, l {.*, embedding: null} AS props, l.embedding AS embedding, refers_to
