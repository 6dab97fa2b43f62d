// mode: read
// params: mind, uids
// Which of $uids are loci that stand for (REFERS_TO) a memory also among $uids: recall drops
// such a copy so a memory and its locus never come back side by side.
UNWIND $uids AS uid
MATCH (l:Locus {uid: uid})-[:REFERS_TO]->(m:Memory)
WHERE l.mind = $mind AND l.source_type = 'MEMORY' AND m.uid IN $uids
RETURN DISTINCT l.uid AS uid
