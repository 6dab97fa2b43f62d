// mode: write
// params: mind, uids
// Before the memories $uids are deleted: the experiences that exemplify a pattern among them,
// and no active pattern that stays, are released with their duplicates that exemplify none
// either: the dream runs that consumed or deferred them let them go (their CONSUMED and
// DEFERRED edges are deleted), so the next dream reads them as new and groups them again instead
// of leaving them in no pattern for good. The ids released.
UNWIND $uids AS uid
MATCH (p:Memory {uid: uid})<-[:EXEMPLIFIES]-(e:Experience)
WHERE p:Pattern AND p.mind = $mind AND e.mind = $mind AND NOT e.uid IN $uids
  AND NOT EXISTS {
    MATCH (e)-[:EXEMPLIFIES]->(q:Pattern)
    WHERE q.mind = $mind AND NOT q.uid IN $uids AND coalesce(q.status, 'active') = 'active'
  }
WITH DISTINCT e
OPTIONAL MATCH (twin:Experience)-[:DUPLICATE_OF]->(e)
WHERE twin.mind = $mind AND NOT twin.uid IN $uids
  AND NOT EXISTS {
    MATCH (twin)-[:EXEMPLIFIES]->(q:Pattern)
    WHERE q.mind = $mind AND NOT q.uid IN $uids AND coalesce(q.status, 'active') = 'active'
  }
WITH collect(DISTINCT e) + collect(DISTINCT twin) AS found
UNWIND found AS x
WITH DISTINCT x
CALL (x) {
  OPTIONAL MATCH (:DreamRun)-[seen:CONSUMED|DEFERRED]->(x)
  DELETE seen
  RETURN count(seen) AS edges
}
RETURN collect(x.id) AS released
