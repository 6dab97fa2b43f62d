// mode: read
// params: mind, patterns, per_pattern
// The latest $per_pattern experiences of each pattern in $patterns (ids) that still hold (no
// invalid_at, or one still to come), returned oldest first: what a stale pattern is extracted
// from again. Columns: pattern, id, description, outcome, kind, strategy_used, confidence, at.
UNWIND $patterns AS pattern_id
MATCH (p:Memory {uid: $mind + ':' + pattern_id})
WHERE p:Pattern
CALL (p) {
  MATCH (e:Experience)-[:EXEMPLIFIES]->(p)
  WHERE e.mind = $mind AND (e.invalid_at IS NULL OR e.invalid_at > datetime())
  RETURN e ORDER BY coalesce(e.timestamp, e.created_at) DESC, e.id LIMIT $per_pattern
}
RETURN pattern_id AS pattern, e.id AS id, e.description AS description, coalesce(e.outcome, 'progress') AS outcome,
       coalesce(e.kind, 'move') AS kind, e.strategy_used AS strategy_used, e.confidence AS confidence,
       coalesce(e.timestamp, e.created_at) AS at
ORDER BY pattern, at, id
