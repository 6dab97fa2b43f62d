// mode: read
// params:
// Node counts per mind, and nodes that belong to no graphmind mind (mind is null). graphmind's
// own bookkeeping nodes (schema version, vector stamps, leases, API keys and jobs) are not counted.
MATCH (n)
WHERE NOT n:GraphmindSchema AND NOT n:GraphmindVectors AND NOT n:GraphmindLease AND NOT n:GraphmindKey AND NOT n:GraphmindJob
RETURN n.mind AS mind, count(*) AS count
ORDER BY mind
