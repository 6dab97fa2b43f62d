// mode: read
// params: hash
// The live key with this hash, if any (a revoked key is gone).
MATCH (k:GraphmindKey {hash: $hash})
RETURN k.id AS id, k.mind AS mind, k.scope AS scope
