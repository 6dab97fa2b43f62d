// mode: read
// params: mind, session
// How many experiences of one mind no dream run has consumed or deferred ($session, when not
// null: of that session only): the backlog, counted when a run read its limit.
MATCH (e:Experience)
WHERE e.mind = $mind AND NOT EXISTS { (:DreamRun)-[:CONSUMED|DEFERRED]->(e) }
  AND ($session IS NULL OR e.session_id = $session)
RETURN count(e) AS unconsumed
