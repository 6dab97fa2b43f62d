// mode: read
// params: mind, uids, limit
// The Dreamer's query_active_constraints: the given constraints, the soonest deadline first, then by
// severity. A Constraint has no status, so every stored constraint counts as active.
UNWIND $uids AS uid
MATCH (n:Memory {uid: uid})
WHERE n.mind = $mind AND n:Constraint
RETURN n.id AS id, 'Constraint' AS label, n {.*, embedding: null} AS props
ORDER BY n.deadline IS NULL, n.deadline,
         CASE toLower(coalesce(n.severity, '')) WHEN 'critical' THEN 0 WHEN 'high' THEN 1
              WHEN 'medium' THEN 2 WHEN 'low' THEN 3 ELSE 4 END
LIMIT $limit
