// mode: write
// params: mind
// Remove the bookkeeping nodes of a deleted mind: its vector stamp (schema 006), its leases
// (schema 007) and its API keys (schema 009: a mind made again under the name starts keyless).
OPTIONAL MATCH (v:GraphmindVectors {mind: $mind})
OPTIONAL MATCH (l:GraphmindLease {mind: $mind})
OPTIONAL MATCH (k:GraphmindKey {mind: $mind})
DETACH DELETE v, l, k
RETURN count(*) AS deleted
