// mode: read
// params: mind, model_id, patterns, per_pattern
// Up to $per_pattern experiences of each of the active $patterns (ids) of one mind (the first by id), with
// their embedding when $model_id made it (else null: the dream embeds them): the anchors where a
// run's clustering of new experiences meets the patterns earlier runs formed.
MATCH (p:Pattern)
WHERE p.mind = $mind AND p.id IN $patterns AND coalesce(p.status, 'active') = 'active'
CALL (p) {
  MATCH (e:Experience)-[:EXEMPLIFIES]->(p)
  WITH e ORDER BY e.id LIMIT $per_pattern
  RETURN e
}
RETURN p.id AS pattern, e.description AS description,
       CASE WHEN e.embedding_model = $model_id THEN e.embedding END AS embedding
ORDER BY pattern, e.id
