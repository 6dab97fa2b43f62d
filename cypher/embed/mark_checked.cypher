// mode: write
// params: mind, uids
// Clear the pending flag of memories whose embedding is still current (or that have no text).
UNWIND $uids AS uid
MATCH (n:Memory {uid: uid})
WHERE n.mind = $mind
REMOVE n.embedding_pending
RETURN count(n) AS written
