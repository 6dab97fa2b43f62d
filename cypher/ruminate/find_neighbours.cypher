// mode: read
// params: mind, uids, rels, seen, limit
// Depth, one hop: the memories one edge from the given ones of one mind (an edge of a type in
// $rels, any type when $rels is null), leaving out those in $seen. Partnerships, identities and
// findings are not reached (everyone is linked to a partner).
UNWIND $uids AS uid
MATCH (s:Memory {uid: uid})-[r]-(m:Memory)
USING INDEX s:Memory(uid)
WHERE s.mind = $mind AND m.mind = $mind AND NOT m:Finding AND NOT m:Partnership AND NOT m:Identity
  AND ($rels IS NULL OR type(r) IN $rels) AND NOT m.uid IN $seen
WITH DISTINCT m
RETURN m.id AS id, [l IN labels(m) WHERE l <> 'Memory'][0] AS label, m {.*, embedding: null} AS props
ORDER BY id
LIMIT $limit
