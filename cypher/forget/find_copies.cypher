// mode: read
// params: mind, uids, probes, fragments, terms, ids, min_chars
// Properties of the nodes $uids (memories or runs) whose text may hold a verbatim copy of
// forgotten text: a value holding a probe (a fragment's beginning), a value of at least
// $min_chars that is a piece of a fragment, a value holding a distinctive term (lower case), or
// a list holding a forgotten id. The pure logic
// (graphmind.forget._logic.scrubbed) decides what changes.
UNWIND $uids AS uid
CALL (uid) {
  MATCH (n:Memory {uid: uid})
  RETURN n
  UNION
  MATCH (n:Run {uid: uid})
  RETURN n
}
WITH n
WHERE n.mind = $mind
UNWIND keys(n) AS key
WITH n, key, n[key] AS value
WHERE NOT key IN ['uid', 'id', 'mind', 'embedding', 'centroid', 'theme_vector']
WITH n, key, value,
     CASE WHEN value IS :: STRING THEN [value] WHEN value IS :: LIST<STRING NOT NULL> THEN value ELSE [] END AS texts
WHERE any(t IN texts WHERE t IN $ids OR any(p IN $probes WHERE t CONTAINS p)
                          OR any(w IN $terms WHERE toLower(t) CONTAINS w)
                          OR (size(t) >= $min_chars AND any(f IN $fragments WHERE f CONTAINS t)))
RETURN n.uid AS uid, n.id AS id, [l IN labels(n) WHERE NOT l IN ['Memory', 'Run']][0] AS label, key, value
ORDER BY uid, key
