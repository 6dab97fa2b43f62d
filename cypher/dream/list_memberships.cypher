// mode: read
// params: mind
// Where each experience of a mind ended up: its pattern (through its representative when it
// is a duplicate, and through SUPERSEDED_BY to the pattern that replaced a pruned one) and
// that pattern's active level-2 category. Nulls for experiences in no pattern yet.
MATCH (e:Experience)
WHERE e.mind = $mind
OPTIONAL MATCH (e)-[:DUPLICATE_OF]->(rep:Experience)
WITH e, coalesce(rep, e) AS source
OPTIONAL MATCH (source)-[:EXEMPLIFIES]->(first:Pattern)
OPTIONAL MATCH (first)-[:SUPERSEDED_BY*0..3]->(p:Pattern)
  WHERE coalesce(p.status, 'active') = 'active'
OPTIONAL MATCH (a:Abstraction)-[:SUBSUMES]->(p)
  WHERE a.level = 2 AND a.status = 'active'
RETURN e.id AS id, p.id AS pattern, a.id AS category
ORDER BY id
