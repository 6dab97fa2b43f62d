// mode: read
// params: mind, session, limit
// The experiences of one mind that no dream run has consumed: those no run has read yet
// (`runs` 0) and those runs deferred, waiting for more like them (`runs`: how many deferred
// it; `last_deferred`: when the last one started). $session (when not null) keeps one
// session's. Oldest first, at most $limit; `total`: how many wait in all, `unread`: how many
// of them no run has read.
CALL () {
  MATCH (e:Experience)
  WHERE e.mind = $mind AND NOT EXISTS { (:DreamRun)-[:CONSUMED]->(e) }
    AND ($session IS NULL OR e.session_id = $session)
  RETURN count(e) AS total, count(CASE WHEN NOT EXISTS { (e)<-[:DEFERRED]-(:DreamRun) } THEN 1 END) AS unread
}
OPTIONAL MATCH (e:Experience)
WHERE e.mind = $mind AND NOT EXISTS { (:DreamRun)-[:CONSUMED]->(e) }
  AND ($session IS NULL OR e.session_id = $session)
WITH total, unread, e ORDER BY e.timestamp, e.id LIMIT $limit
CALL (e) {
  OPTIONAL MATCH (e)<-[:DEFERRED]-(r:DreamRun)
  RETURN count(r) AS runs, toString(max(r.started_at)) AS last_deferred
}
RETURN total, unread, e.id AS id, e.description AS description, e.outcome AS outcome, e.kind AS kind,
       e.session_id AS session_id, toString(e.timestamp) AS timestamp, runs, last_deferred,
       e.invalid_at IS NOT NULL AND e.invalid_at <= datetime() AS invalid
ORDER BY e.timestamp, e.id
