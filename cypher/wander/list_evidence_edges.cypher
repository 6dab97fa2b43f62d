// mode: read
// params: mind, ids
// The typed edges between the memories $ids of the mind (what connects a crystal's evidence),
// wander's own links left out.
MATCH (a:Memory)-[r]->(b:Memory)
WHERE a.mind = $mind AND b.mind = $mind AND a.id IN $ids AND b.id IN $ids AND a <> b
  AND NOT type(r) IN ['REFERS_TO', 'EVIDENCED_BY', 'DRAWS_ON', 'OF_STEP']
RETURN a.id AS source, type(r) AS type, b.id AS target
ORDER BY source, type, target
