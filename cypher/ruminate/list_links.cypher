// mode: read
// params: mind, uids
// Every edge between the given memories of one mind (what rumination returned), as
// source -[rel]-> target ids: relevance keeps a memory one edge from an on-topic one. The hint
// keeps the planner from starting at a scan of the other side while the store is small.
UNWIND $uids AS uid
MATCH (a:Memory {uid: uid})-[r]->(b:Memory)
USING INDEX a:Memory(uid)
WHERE a.mind = $mind AND b.mind = $mind AND b.uid IN $uids
RETURN DISTINCT a.id AS source, type(r) AS rel, b.id AS target
ORDER BY source, rel, target
