// mode: read
// params: mind, session
// Whether one mind ever captured an experience in $session (consumed or not): if not, the
// session id is unknown to it.
RETURN EXISTS {
  MATCH (e:Experience)
  WHERE e.mind = $mind AND e.session_id = $session
} AS known
