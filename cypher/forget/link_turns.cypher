// mode: write
// params: mind, links, sessions
// Close the gaps forgotten turns leave in their conversations: link {from, to} (uids) with
// NEXT, and lower each session's turn_count. session: {uid, removed}.
CALL () {
  UNWIND $links AS link
  MATCH (a:Memory {uid: link.from}), (b:Memory {uid: link.to})
  WHERE a.mind = $mind AND b.mind = $mind
  MERGE (a)-[:NEXT]->(b)
  RETURN count(*) AS linked
}
CALL () {
  UNWIND $sessions AS session
  MATCH (s:Memory {uid: session.uid})
  WHERE s.mind = $mind AND s.turn_count IS NOT NULL
  SET s.turn_count = s.turn_count - session.removed
  RETURN count(*) AS recounted
}
RETURN linked, recounted
