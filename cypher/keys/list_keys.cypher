// mode: read
// params: mind
// The keys of one mind (ids, scopes, dates; never a hash).
MATCH (k:GraphmindKey)
WHERE k.mind = $mind
RETURN k.id AS id, k.mind AS mind, k.scope AS scope, toString(k.created_at) AS created_at
ORDER BY k.created_at, k.id
