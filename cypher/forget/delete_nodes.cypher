// mode: write
// params: mind, uids
// Delete the memories $uids with their relationships (their embedding and full-text entries go
// with the node), and renew the mind's vector stamp so recall's in-memory copies reload.
UNWIND $uids AS uid
MATCH (n:Memory {uid: uid})
WHERE n.mind = $mind
DETACH DELETE n
WITH count(*) AS deleted
MERGE (v:GraphmindVectors {mind: $mind})
SET v.stamp = randomUUID()
RETURN deleted
