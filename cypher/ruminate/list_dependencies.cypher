// mode: read
// params: mind, uids, rels
// The dependency edges ($rels: DEPENDS_ON, IMPORTS, ...) between the given memories of one mind
// (what rumination returned) whose target is a Code_Reference or Technical_Context: the
// Context Object's "Dependencies", read from the graph's edges. The hint keeps the planner from
// starting at a scan of the other side while the store is small.
UNWIND $uids AS uid
MATCH (a:Memory {uid: uid})-[r]->(b:Memory)
USING INDEX a:Memory(uid)
WHERE a.mind = $mind AND b.mind = $mind AND type(r) IN $rels AND b.uid IN $uids
  AND (b:Code_Reference OR b:Technical_Context)
RETURN DISTINCT a.id AS source, type(r) AS rel, b.id AS target
ORDER BY source, target
