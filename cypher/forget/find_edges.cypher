// mode: read
// params: mind, uids
// Every relationship of the memories $uids (what DETACH DELETE takes with them), once each.
UNWIND $uids AS uid
MATCH (m:Memory {uid: uid})-[r]-()
WHERE m.mind = $mind
WITH DISTINCT r
RETURN startNode(r).id AS source, type(r) AS type, endNode(r).id AS target
ORDER BY source, type, target
