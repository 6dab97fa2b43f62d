// mode: read
// params: mind, session_id, last
// A session's trace (its $last steps, or all when $last is null), in step order, with the
// residue each step left.
MATCH (a:Memory)-[t:STEP]->(b:Memory)
WHERE a.mind = $mind AND t.session = $session_id
WITH a, t, b
ORDER BY t.step_number DESC
LIMIT coalesce($last, 1000000000)
OPTIONAL MATCH (r:Residue)-[:OF_STEP {role: 'to'}]->(b)
WHERE r.mind = $mind AND r.session_id = $session_id AND r.step_number = t.step_number
RETURN t.step_number AS step_number, a.id AS from_id, a.concept AS from_concept, b.id AS to_id,
       b.concept AS to_concept, properties(t) AS trace, r.id AS residue_id, r.themes AS themes,
       r.interestingness AS interestingness
ORDER BY step_number
