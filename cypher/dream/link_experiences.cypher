// mode: write
// params: mind, run_uid, rows
// What a dream did with each experience it saw. row: {uid, role, importance, duplicate_of,
// similarity}. role consumed | duplicate | filtered → (:DreamRun)-[:CONSUMED {role, importance}]
// ->(:Experience); role deferred → (:DreamRun)-[:DEFERRED]->(:Experience) (seen, in no
// cluster yet, so a later run looks again). A duplicate also gets
// (:Experience)-[:DUPLICATE_OF {similarity}]->(its representative): nothing is deleted.
MATCH (run:DreamRun {uid: $run_uid})
UNWIND $rows AS row
MATCH (e:Memory {uid: row.uid})
WHERE e.mind = $mind
FOREACH (_ IN CASE WHEN row.role <> 'deferred' THEN [1] ELSE [] END |
  MERGE (run)-[c:CONSUMED]->(e)
  SET c.role = row.role, c.importance = row.importance)
FOREACH (_ IN CASE WHEN row.role = 'deferred' THEN [1] ELSE [] END |
  MERGE (run)-[:DEFERRED]->(e))
WITH e, row
CALL (e, row) {
  MATCH (rep:Memory {uid: row.duplicate_of})
  WHERE rep.mind = $mind
  MERGE (e)-[d:DUPLICATE_OF]->(rep)
  SET d.similarity = row.similarity
  RETURN count(rep) AS duplicates
}
RETURN count(e) AS linked
