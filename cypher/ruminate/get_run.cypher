// mode: read
// params: mind, id
// One recorded rumination: the run's properties, and each Finding with the ids it cites.
MATCH (r:Run {uid: $mind + ':' + $id})
WHERE r.mind = $mind AND r:RuminationRun
OPTIONAL MATCH (r)-[:FOUND]->(f:Finding)
OPTIONAL MATCH (f)-[:CITES]->(m:Memory)
WITH r, f, collect(m.id) AS cites
ORDER BY f.step_number, f.section
RETURN r {.*} AS run,
       [x IN collect(CASE WHEN f IS NULL THEN NULL ELSE {id: f.id, summary: f.summary, section: f.section,
                                        step_number: f.step_number, cites: cites} END)
        WHERE x IS NOT NULL] AS findings
