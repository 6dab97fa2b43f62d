// mode: read
// params: mind, uids
// The conversation neighbours of the turns $uids: each turn's NEXT predecessor and successor
// and its session (what forget relinks around a gap and recounts).
UNWIND $uids AS uid
MATCH (t:Memory {uid: uid})
WHERE t.mind = $mind AND t:Turn
OPTIONAL MATCH (p:Memory)-[:NEXT]->(t)
WHERE p.mind = $mind
OPTIONAL MATCH (t)-[:NEXT]->(n:Memory)
WHERE n.mind = $mind
OPTIONAL MATCH (t)-[:IN_SESSION]->(s:Memory)
WHERE s.mind = $mind
RETURN t.uid AS uid, p.uid AS previous, n.uid AS next, s.uid AS session
