// mode: write
// params: mind, uids
// Before the memories $uids are deleted: the experiences that exemplify a pattern among them,
// and no active pattern that stays, are released with their duplicates (the dream runs that
// consumed them let them go: their CONSUMED edges are deleted), so the next dream consolidates
// them again instead of leaving them in no pattern for good. The ids released.
UNWIND $uids AS uid
MATCH (p:Memory {uid: uid})<-[:EXEMPLIFIES]-(e:Experience)
WHERE p:Pattern AND p.mind = $mind AND e.mind = $mind AND NOT e.uid IN $uids
WITH DISTINCT e
OPTIONAL MATCH (twin:Experience)-[:DUPLICATE_OF]->(e)
WHERE twin.mind = $mind AND NOT twin.uid IN $uids
WITH collect(e) + collect(twin) AS found
UNWIND found AS x
WITH DISTINCT x
WHERE NOT EXISTS {
  MATCH (x)-[:EXEMPLIFIES]->(q:Pattern)
  WHERE q.mind = $mind AND NOT q.uid IN $uids AND coalesce(q.status, 'active') = 'active'
}
CALL (x) {
  OPTIONAL MATCH (:DreamRun)-[c:CONSUMED]->(x)
  DELETE c
  RETURN count(c) AS consumed
}
RETURN collect(x.id) AS released
