// mode: read
// params: mind, uids, label, limit
// Memories with label $label linked to any of the given memories of one mind (what rumination
// has found so far): the graph neighbourhood a query tool adds to what the stimulus matched.
UNWIND $uids AS uid
MATCH (n:Memory {uid: uid})--(m:Memory)
WHERE n.mind = $mind AND m.mind = $mind AND $label IN labels(m)
RETURN DISTINCT m.uid AS uid
LIMIT $limit
