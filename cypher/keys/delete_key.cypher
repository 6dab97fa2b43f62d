// mode: write
// params: mind, id
// Revoke one key of a mind.
MATCH (k:GraphmindKey {id: $id})
WHERE k.mind = $mind
DELETE k
RETURN count(*) AS revoked
