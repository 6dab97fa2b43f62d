// mode: read
// params: mind, uids, labels, limit
// Memories with one of $labels linked to any of the given memories of one mind (what rumination
// has found so far): the graph neighbourhood a query tool adds to what the stimulus matched.
// An Experience a Pattern exemplifies is left out (its pattern speaks for it), as is a superseded one.
// The hint keeps the planner from starting at a scan of the other side while the store is small.
UNWIND $uids AS uid
MATCH (n:Memory {uid: uid})--(m:Memory)
USING INDEX n:Memory(uid)
WHERE n.mind = $mind AND m.mind = $mind AND any(l IN labels(m) WHERE l IN $labels)
  AND NOT (m:Experience AND (EXISTS { (m)-[:EXEMPLIFIES]->(:Pattern) } OR m.invalid_at <= datetime()))
RETURN DISTINCT m.uid AS uid
LIMIT $limit
