// mode: read
// params: mind, session
// How many experiences of one mind no dream run has consumed ($session, when not null: of
// that session only); the same filter as list_experiences, counted when a run read its limit.
MATCH (e:Experience)
WHERE e.mind = $mind AND NOT EXISTS { (:DreamRun)-[:CONSUMED]->(e) }
  AND ($session IS NULL OR e.session_id = $session)
RETURN count(e) AS unconsumed
