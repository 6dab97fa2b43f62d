// mode: read
// params: mind, uids, labels
// The memories with one of $labels that replace the given ones of one mind: those a capture
// made to supersede or contradict them (SUPERSEDES, or CONTRADICTS from a memory that is no
// Pattern, Abstraction or Locus: the dream's and a wander's contradictions replace nothing),
// or that the dream kept where it pruned them (old -[:SUPERSEDED_BY]-> new), directly or
// through a chain of up to 10, the nearest 10 of each kind for each, with the number of hops;
// the caller keeps those valid now. Without their embeddings.
UNWIND $uids AS uid
MATCH (old:Memory {uid: uid})
WHERE old.mind = $mind
CALL (old) {
  MATCH path = (old)<-[:SUPERSEDES|CONTRADICTS*1..10]-(new:Memory)
  WHERE new.mind = $mind AND any(l IN labels(new) WHERE l IN $labels)
    AND all(r IN relationships(path) WHERE type(r) = 'SUPERSEDES'
            OR NOT (startNode(r):Pattern OR startNode(r):Abstraction OR startNode(r):Locus))
    AND all(n IN nodes(path) WHERE n.mind = $mind)
  RETURN new, length(path) AS hops
  ORDER BY hops
  LIMIT 10
  UNION
  MATCH path = (old)-[:SUPERSEDED_BY*1..10]->(new:Memory)
  WHERE new.mind = $mind AND any(l IN labels(new) WHERE l IN $labels)
    AND all(n IN nodes(path) WHERE n.mind = $mind)
  RETURN new, length(path) AS hops
  ORDER BY hops
  LIMIT 10
}
RETURN old.uid AS old, new.uid AS uid, [l IN labels(new) WHERE l <> 'Memory'][0] AS label,
       new {.*, embedding: null} AS props, hops
