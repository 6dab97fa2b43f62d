// mode: read
// params: mind, uids, rels, limit
// Depth: the memories one edge (any type) or two edges (the second of a type in $rels) from
// the given on-topic memories of one mind, with the hop that reached them first. Partnerships,
// identities and findings are neither reached nor passed through (everyone is linked to a partner).
UNWIND $uids AS uid
MATCH (s:Memory {uid: uid})-[]-(a:Memory)
USING INDEX s:Memory(uid)
WHERE s.mind = $mind AND a.mind = $mind AND NOT a:Finding AND NOT a:Partnership AND NOT a:Identity
  AND NOT a.uid IN $uids
WITH DISTINCT a
CALL {
  WITH a
  RETURN a AS m, 1 AS hop
  UNION
  WITH a
  MATCH (a)-[r]-(b:Memory)
  WHERE type(r) IN $rels AND b.mind = $mind AND NOT b:Finding AND NOT b:Partnership AND NOT b:Identity
    AND NOT b.uid IN $uids
  RETURN b AS m, 2 AS hop
}
WITH m, min(hop) AS hop
RETURN m.id AS id, [l IN labels(m) WHERE l <> 'Memory'][0] AS label, m {.*, embedding: null} AS props, hop
ORDER BY hop, id
LIMIT $limit
