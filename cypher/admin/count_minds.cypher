// mode: read
// params:
// Node counts per mind, and nodes that belong to no graphmind mind (mind is null).
MATCH (n)
WHERE NOT n:GraphmindSchema
RETURN n.mind AS mind, count(*) AS count
ORDER BY mind
