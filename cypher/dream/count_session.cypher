// mode: read
// params: mind, session
// How many experiences of one mind were ever captured in $session (consumed or not): none means
// the session id is unknown to the mind.
MATCH (e:Experience)
WHERE e.mind = $mind AND e.session_id = $session
RETURN count(e) AS experiences
