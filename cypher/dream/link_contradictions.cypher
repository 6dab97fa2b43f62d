// mode: write
// params: mind, rows
// Patterns that verification found contradicting each other. row: {a, b, shared, settled} (uids)
// → (:Pattern)-[:CONTRADICTS {shared_conditions, settled}]->(:Pattern). An unsettled pair is
// flagged: both unverified. A settled one (the older side superseded, graphmind.dream.supersede)
// keeps the statuses the run wrote (the loser invalidated).
UNWIND $rows AS row
MATCH (a:Memory {uid: row.a}), (b:Memory {uid: row.b})
WHERE a.mind = $mind AND b.mind = $mind
MERGE (a)-[c:CONTRADICTS]->(b)
SET c.shared_conditions = row.shared, c.settled = row.settled,
    a.verification_status = CASE WHEN row.settled THEN a.verification_status ELSE 'unverified' END,
    b.verification_status = CASE WHEN row.settled THEN b.verification_status ELSE 'unverified' END
RETURN count(c) AS linked
