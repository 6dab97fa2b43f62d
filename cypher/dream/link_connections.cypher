// mode: write
// params: mind, rows
// Cross-connections between patterns. row: {from, to, kind, strength, evidence, rationale}
// (uids) → (:Pattern)-[:CONNECTS {kind, strength, evidence, rationale}]->(:Pattern).
UNWIND $rows AS row
MATCH (a:Memory {uid: row.from}), (b:Memory {uid: row.to})
WHERE a.mind = $mind AND b.mind = $mind
MERGE (a)-[c:CONNECTS]->(b)
SET c.kind = row.kind, c.strength = row.strength, c.evidence = row.evidence, c.rationale = row.rationale
RETURN count(c) AS linked
