// mode: write
// params: id, hash, mind, scope
// Store a new API key by its hash (the key itself is shown once and never stored).
CREATE (k:GraphmindKey {id: $id, hash: $hash, mind: $mind, scope: $scope, created_at: datetime()})
RETURN k.id AS id, k.mind AS mind, k.scope AS scope, toString(k.created_at) AS created_at
