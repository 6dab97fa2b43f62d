// mode: write
// params: mind
// Remove the bookkeeping nodes of a deleted mind: its vector stamp (schema 006) and its
// leases (schema 007).
OPTIONAL MATCH (v:GraphmindVectors {mind: $mind})
OPTIONAL MATCH (l:GraphmindLease {mind: $mind})
DETACH DELETE v, l
RETURN count(*) AS deleted
