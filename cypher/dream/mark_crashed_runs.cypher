// mode: write
// params:
// After a fresh start of the server ('graphmind neo4j start'): no transaction survived it, so
// the dream runs left "running" by a crash read 'interrupted' and the dream leases are given
// back. A run whose process is still alive takes its lease again at its next phase (or stops,
// when another run took it first); its publication re-checks the lease in the same transaction.
CALL () {
  MATCH (r:DreamRun)
  WHERE r.status = 'running'
  SET r.status = 'interrupted', r.error = 'interrupted by a Neo4j restart before it committed, a later run redoes its work',
      r.finished_at = datetime()
  RETURN count(r) AS interrupted
}
CALL () {
  MATCH (l:GraphmindLease)
  WHERE l.key ENDS WITH '/dream' AND l.holder IS NOT NULL
  SET l.holder = null, l.until = datetime()
  RETURN count(l) AS released
}
RETURN interrupted, released
