// mode: read
// params: mind, embedding, model_id, labels, fetch, limit
// Nearest memories of one mind to $embedding. The vector index spans every mind, so it
// over-fetches $fetch candidates and keeps this mind's (and $labels', if given). 'fetched'
// tells whether the index ran out of candidates, 'own' how many were this mind's (recall
// sizes its next over-fetch from that share), 'stale' how many of this mind's were
// embedded by another model (and so were skipped).
CALL db.index.vector.queryNodes('memory_embedding', $fetch, $embedding) YIELD node, score
WITH count(*) AS fetched,
     collect(CASE WHEN node.mind = $mind AND node.embedding_model <> $model_id THEN 1 END) AS stale,
     collect(CASE WHEN node.mind = $mind AND node.embedding_model = $model_id
                   AND ($labels IS NULL OR any(l IN labels(node) WHERE l IN $labels))
              THEN {uid: node.uid, score: score} END) AS own
RETURN fetched, size(stale) AS stale, size(own) AS own, own[0..$limit] AS kept
