// mode: read
// params: mind, ids
// The typed label of each of these ids that already exists in the mind; held: it is an
// Experience an active pattern is built on (EXEMPLIFIES), which an import must not rewrite silently
// (a pruned one states nothing the mind holds).
UNWIND $ids AS id
CALL (id) {
  MATCH (n:Memory {uid: $mind + ':' + id}) RETURN n
  UNION
  MATCH (n:Run {uid: $mind + ':' + id}) RETURN n
}
RETURN n.id AS id, [l IN labels(n) WHERE NOT l IN ['Memory', 'Run']] AS labels,
       n:Experience AND EXISTS { (n)-[:EXEMPLIFIES]->(p:Pattern) WHERE coalesce(p.status, 'active') = 'active' } AS held
