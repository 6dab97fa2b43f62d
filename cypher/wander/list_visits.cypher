// mode: read
// params: mind, session_id
// How often the session visited each locus; the crystals' sources (the locus and resonances
// each crystal came from, kept on the crystal: its evidence is memories) so far.
MATCH (s:Run {uid: $mind + ':' + $session_id})
OPTIONAL MATCH (s)-[v:VISITED]->(l:Locus)
WITH s, collect({id: l.id, visits: v.visits}) AS visits
OPTIONAL MATCH (c:Crystal)
WHERE c.mind = $mind
WITH visits, [x IN collect(c.source_locus_id) WHERE x IS NOT NULL] AS loci,
     reduce(acc = [], ids IN collect(coalesce(c.resonance_ids, [])) | acc + ids) AS resonances
RETURN [x IN visits WHERE x.id IS NOT NULL] AS visits, loci + resonances AS crystallized
