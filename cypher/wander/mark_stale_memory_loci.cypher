// mode: write
// params: mind, labels
// MEMORY loci that no longer stand for a memory of idea space (a crystal, a working node, or a
// memory since pruned, retired, absorbed or invalidated) leave the hot tier: no walk finds them
// again, and the sessions that visited them keep their trace.
MATCH (l:Locus)
USING INDEX l:Locus(mind, tier)
WHERE l.mind = $mind AND l.tier = 'hot' AND l.source_type = 'MEMORY'
  AND NOT EXISTS {
    MATCH (l)-[:REFERS_TO]->(n:Memory)
    WHERE n.mind = $mind AND any(x IN labels(n) WHERE x IN $labels)
      AND NOT coalesce(n.status, 'active') IN ['pruned', 'retired', 'absorbed', 'faded', 'invalidated', 'archived']
  }
SET l.tier = 'stale'
RETURN count(l) AS retired
