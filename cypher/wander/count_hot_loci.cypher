// mode: read
// params: mind
// How many hot loci a mind holds (all sessions and its memory loci): the size of idea space
// that decides between an exact band scan and the vector index.
MATCH (l:Locus)
USING INDEX l:Locus(mind, tier)
WHERE l.mind = $mind AND l.tier = 'hot'
RETURN count(l) AS loci
