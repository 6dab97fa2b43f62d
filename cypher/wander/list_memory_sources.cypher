// mode: read
// params: mind, labels
// The mind's memories that stand in idea space as MEMORY loci: every memory label in $labels
// (experiences included; wander's working nodes and crystals are not memories here), not
// pruned, retired, absorbed or invalidated. For each: its props, the names of the level-2
// categories around it (its domains), and the locus that already stands for it with the hash
// of the concept it was embedded from and its tier.
MATCH (n:Memory)
WHERE n.mind = $mind AND any(l IN labels(n) WHERE l IN $labels)
  AND NOT coalesce(n.status, 'active') IN ['pruned', 'retired', 'absorbed', 'faded', 'invalidated', 'archived']
OPTIONAL MATCH (n)-[:SUBSUMES]-(category:Abstraction {level: 2})
WHERE category.mind = $mind
OPTIONAL MATCH (locus:Locus)-[:REFERS_TO]->(n)
WHERE locus.mind = $mind AND locus.source_type = 'MEMORY'
WITH n, collect(DISTINCT category.name) AS categories, head(collect(locus)) AS locus
RETURN n.id AS id, [l IN labels(n) WHERE l IN $labels][0] AS label,
       n {.*, embedding: null} AS props, categories,
       locus.id AS locus_id, locus.embedding_hash AS locus_hash, locus.tier AS locus_tier
ORDER BY id
