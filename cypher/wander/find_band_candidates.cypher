// mode: read
// params: mind, session_id, current, embedding, low, high, limit
// Distance-band sampling: the hot loci in the session's idea space (the mind's MEMORY loci and
// the session's own) whose cosine to $embedding lies in [$low, $high], most similar first.
// The cosine is exact (vector.similarity.cosine gives (1 + cos) / 2): the approximate vector
// index spans every mind and changes as other sessions write, so the same seed could walk
// differently; an exact scan over one mind's hot loci is deterministic and bounded.
MATCH (l:Locus)
USING INDEX l:Locus(mind, tier)
WHERE l.mind = $mind AND l.tier = 'hot' AND l.id <> $current AND l.embedding IS NOT NULL
  AND (l.session_id IS NULL OR l.session_id = $session_id)
WITH l, 2 * vector.similarity.cosine(l.embedding, $embedding) - 1 AS cosine
WHERE cosine >= $low AND cosine <= $high
ORDER BY cosine DESC, l.concept, l.id
LIMIT $limit
RETURN l.id AS id, l {.*, embedding: null} AS props, l.embedding AS embedding,
       cosine, 'distance_band' AS strategy, null AS via
