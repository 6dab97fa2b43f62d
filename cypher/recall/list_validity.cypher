// mode: read
// params: mind, uids
// When each of $uids was made, when it happened, and the window in which it holds: recall as of a date keeps
// the memories that existed and were valid then (graphmind/recall/validity.py decides).
UNWIND $uids AS uid
MATCH (n:Memory {uid: uid})
WHERE n.mind = $mind
RETURN n.uid AS uid, n.created_at AS created_at, n.timestamp AS timestamp, n.valid_from AS valid_from,
       n.invalid_at AS invalid_at,
       n.verification_status AS verification_status
