// mode: read
// params: mind, session_id, current, embedding, low, high, limit, fetch
// Distance-band sampling through the vector index, for minds with many loci (an exact scan per
// step would grow with the mind): the $fetch nearest memories of every mind, kept when they are
// hot loci of this session's idea space with a cosine to $embedding in [$low, $high]. The index
// is approximate and spans every mind, so the walk is reproducible for a given state of the
// index (the exact scan, find_band_candidates, is used up to a few thousand loci).
CALL db.index.vector.queryNodes('memory_embedding', $fetch, $embedding) YIELD node, score
WITH node AS l, 2 * score - 1 AS cosine
WHERE l.mind = $mind AND l:Locus AND l.tier = 'hot' AND l.id <> $current
  AND (l.session_id IS NULL OR l.session_id = $session_id) AND cosine >= $low AND cosine <= $high
WITH l, cosine
ORDER BY cosine DESC, l.concept, l.id
LIMIT $limit
RETURN l.id AS id, l {.*, embedding: null} AS props, l.embedding AS embedding,
       cosine, 'distance_band' AS strategy, null AS via
