// mode: write
// params: mind
// Remove the bookkeeping nodes of a deleted mind: its vector stamp (schema 006), its leases
// (schema 007), its API keys and REST jobs (schema 009: a mind made again under the name
// starts keyless).
OPTIONAL MATCH (v:GraphmindVectors {mind: $mind})
OPTIONAL MATCH (l:GraphmindLease {mind: $mind})
OPTIONAL MATCH (k:GraphmindKey {mind: $mind})
OPTIONAL MATCH (j:GraphmindJob {mind: $mind})
DETACH DELETE v, l, k, j
RETURN count(*) AS deleted
