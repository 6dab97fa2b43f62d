// mode: write
// params: mind, rows
// Patterns that verification found contradicting each other. row: {a, b, shared} (uids) →
// (:Pattern)-[:CONTRADICTS {shared_conditions}]->(:Pattern), both flagged unverified.
UNWIND $rows AS row
MATCH (a:Memory {uid: row.a}), (b:Memory {uid: row.b})
WHERE a.mind = $mind AND b.mind = $mind
MERGE (a)-[c:CONTRADICTS]->(b)
SET c.shared_conditions = row.shared, a.verification_status = 'unverified',
    b.verification_status = 'unverified'
RETURN count(c) AS linked
