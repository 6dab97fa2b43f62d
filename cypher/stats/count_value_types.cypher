// mode: read
// params: mind
// How many values of each Cypher type every property of one mind holds, by label (the model's,
// not Memory/Run) and by relationship type: a round trip must give back a date-time as a date-time.
CALL () {
  MATCH (n:Memory {mind: $mind}) RETURN n
  UNION
  MATCH (n:Run {mind: $mind}) RETURN n
}
CALL (n) {
  UNWIND keys(n) AS key
  RETURN 'node' AS kind, [l IN labels(n) WHERE NOT l IN ['Memory', 'Run']][0] AS owner, key,
         valueType(n[key]) AS type
  UNION ALL
  MATCH (n)-[r]->()
  UNWIND keys(r) AS key
  RETURN 'rel' AS kind, type(r) AS owner, key, valueType(r[key]) AS type
}
RETURN kind, owner, key, type, count(*) AS count
ORDER BY kind, owner, key, type
