// mode: read
// params: mind, rows
// What import lines would change of experiences of the mind a pattern is built on (EXEMPLIFIES).
// row: {uid, id, props (the content fields the line gives), invalid_at (ISO-8601, or null)}.
// Returns a row for each one changed: changed, its content fields whose stored value differs
// (a pattern states them: the import refuses the line); restated, true when the line gives an
// invalid_at it lacks or holds otherwise (it stops holding then: the patterns on it are stale,
// memory/mark_unsupported_patterns); pattern, one pattern it exemplifies.
UNWIND $rows AS row
MATCH (n:Memory {uid: row.uid})
WHERE n.mind = $mind AND n:Experience
WITH row, n, [k IN keys(row.props) WHERE n[k] IS NULL OR n[k] <> row.props[k]] AS changed,
     row.invalid_at IS NOT NULL AND (n.invalid_at IS NULL OR n.invalid_at <> datetime(row.invalid_at)) AS restated
WHERE size(changed) > 0 OR restated
RETURN row.id AS id, n.uid AS uid, changed, restated,
       COLLECT { MATCH (n)-[:EXEMPLIFIES]->(p:Pattern) WHERE coalesce(p.status, 'active') = 'active'
                 RETURN p.id ORDER BY p.id LIMIT 1 }[0] AS pattern
