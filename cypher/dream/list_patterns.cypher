// mode: read
// params: mind
// The active patterns of one mind with what a dream needs to grow, prune and connect them, and
// the span of time of their experiences (which side of a contradiction is the older).
MATCH (p:Pattern)
WHERE p.mind = $mind AND coalesce(p.status, 'active') = 'active'
CALL (p) {
  OPTIONAL MATCH (e:Experience)-[:EXEMPLIFIES]->(p)
  WITH coalesce(e.timestamp, e.created_at) AS at
  RETURN min(at) AS first_evidence, max(at) AS last_evidence
}
RETURN p.id AS id, coalesce(p.name, p.description) AS name, p.description AS description,
       coalesce(p.pattern_type, 'technique') AS pattern_type, coalesce(p.conditions, []) AS conditions,
       coalesce(p.actions, []) AS actions, coalesce(p.examples, []) AS examples,
       p.centroid AS centroid, coalesce(p.success_count, 0) AS success_count,
       coalesce(p.progress_count, 0) AS progress_count, coalesce(p.failure_count, 0) AS failure_count,
       coalesce(p.error_count, 0) AS error_count, coalesce(p.cohesion, 1.0) AS cohesion,
       p.verification_status AS verification_status, first_evidence, last_evidence
ORDER BY id
