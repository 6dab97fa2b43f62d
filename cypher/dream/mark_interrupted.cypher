// mode: write
// params: mind, run_id
// Runs of a mind still "running" while another run holds the lease died before they
// committed (killed, or Neo4j went away): mark them interrupted. Nothing else of them exists.
MATCH (r:DreamRun)
WHERE r.mind = $mind AND r.status = 'running' AND r.id <> $run_id
SET r.status = 'interrupted', r.error = 'interrupted before it committed, a later run redoes its work',
    r.finished_at = datetime()
RETURN count(r) AS interrupted
