// mode: write
// params: mind, uids
// Patterns and abstractions that lost some of their support to a forget: the next verify or
// dream checks them again.
UNWIND $uids AS uid
MATCH (n:Memory {uid: uid})
WHERE n.mind = $mind
SET n.verification_status = 'unverified'
RETURN count(n) AS marked
