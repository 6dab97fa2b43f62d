// mode: write
// params: mind, crystal
// Write a crystal with its evidence: $crystal {uid, id, props, evidence: [uid]} →
// (:Crystal)-[:EVIDENCED_BY]->(:Residue|Resonance|Locus|Memory) for each evidence node of the mind.
MERGE (c:Memory {uid: $crystal.uid})
  ON CREATE SET c.created_at = datetime(), c.embedding_pending = true
SET c:Crystal, c += $crystal.props, c.mind = $mind, c.id = $crystal.id
WITH c
CALL (c) {
  UNWIND $crystal.evidence AS uid
  MATCH (e:Memory {uid: uid})
  WHERE e.mind = $mind
  MERGE (c)-[:EVIDENCED_BY]->(e)
  RETURN count(e) AS linked
}
RETURN c.id AS id, linked
