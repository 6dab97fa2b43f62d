// mode: read
// params: mind
// What the threshold trigger needs: how many experiences no dream has seen yet, and when the
// last completed dream run of the mind finished.
CALL () {
  MATCH (e:Experience)
  WHERE e.mind = $mind AND NOT EXISTS { (:DreamRun)-[:CONSUMED|DEFERRED]->(e) }
  RETURN count(e) AS new_experiences
}
CALL () {
  MATCH (r:DreamRun)
  WHERE r.mind = $mind AND r.status = 'completed' AND NOT coalesce(r.dry_run, false)
  RETURN max(r.finished_at) AS last
}
RETURN new_experiences, toString(last) AS last_finished_at
