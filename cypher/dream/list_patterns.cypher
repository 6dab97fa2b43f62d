// mode: read
// params: mind
// The active patterns of one mind with what a dream needs to grow, prune and connect them, and
// the span of time of their experiences (which side of a contradiction is the older). A
// pattern with no outcome counts of its own (imported, not dreamed) counts the experiences
// that exemplify it. ``strategies``: the names its experiences were filed under (redundancy
// pruning never makes twins of two techniques the agent named apart). ``superseded_itself``: a
// memory (not a pattern the dream found contradicting it) supersedes or contradicts the pattern
// itself; ``stale``: experiences of it stopped holding since it was extracted (graphmind.dream.refresh).
MATCH (p:Pattern)
WHERE p.mind = $mind AND coalesce(p.status, 'active') = 'active'
CALL (p) {
  OPTIONAL MATCH (e:Experience)-[:EXEMPLIFIES]->(p)
  WITH e, coalesce(e.timestamp, e.created_at) AS at
  RETURN min(at) AS first_evidence, max(at) AS last_evidence, collect(DISTINCT e.strategy_used) AS strategies,
         count(CASE WHEN e.outcome = 'success' THEN 1 END) AS successes,
         count(CASE WHEN e.outcome = 'progress' THEN 1 END) AS progresses,
         count(CASE WHEN e.outcome = 'failure' THEN 1 END) AS failures,
         count(CASE WHEN e.kind = 'error' THEN 1 END) AS errors
}
WITH p, first_evidence, last_evidence, strategies, successes, progresses, failures, errors,
     p.success_count IS NULL AND p.progress_count IS NULL AND p.failure_count IS NULL AS counted
RETURN p.id AS id, coalesce(p.name, p.description) AS name, p.description AS description,
       coalesce(p.pattern_type, 'technique') AS pattern_type, coalesce(p.conditions, []) AS conditions,
       coalesce(p.actions, []) AS actions, coalesce(p.examples, []) AS examples,
       p.centroid AS centroid,
       CASE WHEN counted THEN successes ELSE coalesce(p.success_count, 0) END AS success_count,
       CASE WHEN counted THEN progresses ELSE coalesce(p.progress_count, 0) END AS progress_count,
       CASE WHEN counted THEN failures ELSE coalesce(p.failure_count, 0) END AS failure_count,
       CASE WHEN counted THEN errors ELSE coalesce(p.error_count, 0) END AS error_count,
       coalesce(p.cohesion, 1.0) AS cohesion, p.verification_status AS verification_status,
       first_evidence, last_evidence, strategies,
       EXISTS { (m:Memory)-[:SUPERSEDES|CONTRADICTS]->(p) WHERE m.mind = $mind AND NOT m:Pattern } AS superseded_itself,
       p.stale_since IS NOT NULL AND p.stale_since <= datetime() AS stale
ORDER BY id
