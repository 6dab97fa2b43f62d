// mode: read
// params: mind, uids, forward, backward
// The nodes derived from the memories $uids through one provenance edge: (m)-[:$forward]->(d)
// or (d)-[:$backward]->(m) (types from graphmind.forget._logic), each with all its provenance
// sources {uid, rel}, and its wander session if any. A dependent may be a :Run (a rumination
// run, through FOUND).
UNWIND $uids AS uid
MATCH (m:Memory {uid: uid})
WHERE m.mind = $mind
CALL (m) {
  MATCH (m)-[r]->(d)
  WHERE type(r) IN $forward
  RETURN d
  UNION
  MATCH (m)<-[r]-(d)
  WHERE type(r) IN $backward
  RETURN d
}
WITH DISTINCT d
WHERE d.mind = $mind
RETURN d.uid AS uid, d.id AS id, [l IN labels(d) WHERE NOT l IN ['Memory', 'Run']][0] AS label,
       d.source_type AS source_type, d.session_id AS session_id,
       [(s)-[r]->(d) WHERE type(r) IN $forward AND s.mind = $mind | {uid: s.uid, rel: type(r)}] +
       [(d)-[r]->(s) WHERE type(r) IN $backward AND s.mind = $mind | {uid: s.uid, rel: type(r)}] AS sources
ORDER BY uid
