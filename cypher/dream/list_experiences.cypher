// mode: read
// params: mind, model_id, session, limit
// The experiences of one mind that no dream run has consumed, oldest first, with their
// embedding when $model_id made it (else null: the dream embeds them in memory). `deferred`:
// an earlier run saw it and left it for later. $session (when not null) keeps one session's,
// and those an earlier run deferred from any session: they wait for company, which it may bring.
// At most $limit: the oldest of those no run has seen first, then the deferred ones seen by the
// fewest runs, oldest first, so a backlog larger than $limit is always worked through (deferred
// ones wait for it to drain) and, past $limit, deferred ones take turns (each run that reads one
// defers it once more, to the back of the queue); the vectors are read only for those kept
// (after the LIMIT). `deferred_by`: the run that deferred it last (the one run that saw all of
// a batch whose rows share it; such a batch is clustered again only with something new).
// `invalid`: superseded or contradicted since its capture (or valid only until a time now past);
// `replaces`: it supersedes or contradicts older memories.
// Columns in this order (read as tuples).
MATCH (e:Experience)
WHERE e.mind = $mind AND NOT EXISTS { (:DreamRun)-[:CONSUMED]->(e) }
  AND ($session IS NULL OR e.session_id = $session OR EXISTS { (e)<-[:DEFERRED]-(:DreamRun) })
WITH e, COUNT { (e)<-[:DEFERRED]-(:DreamRun) } AS seen
ORDER BY seen, e.timestamp, e.id LIMIT $limit
CALL (e, seen) {
  OPTIONAL MATCH (e)<-[:DEFERRED]-(r:DreamRun) WHERE seen > 0
  RETURN r.id AS deferred_by ORDER BY r.started_at IS NULL, r.started_at DESC, r.id DESC LIMIT 1
}
RETURN e.id AS id, e.description AS description, e.outcome AS outcome, e.kind AS kind,
       e.strategy_used AS strategy_used, e.session_id AS session_id,
       toString(e.timestamp) AS timestamp, e.importance AS importance,
       e.confidence AS confidence, e.impact AS impact,
       seen > 0 AS deferred, deferred_by,
       e.invalid_at IS NOT NULL AND e.invalid_at <= datetime() AS invalid,
       EXISTS { (e)-[:SUPERSEDES|CONTRADICTS]->(:Memory) } AS replaces,
       CASE WHEN e.embedding_model = $model_id THEN e.embedding END AS embedding
ORDER BY timestamp, id
