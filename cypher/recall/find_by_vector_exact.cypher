// mode: read
// params: mind, embedding, model_id, labels, limit
// Exact nearest memories of one (small) mind: cosine against every embedded memory of the mind,
// found through the mind index. Same score scale as the vector index ((1 + cosine) / 2).
MATCH (n:Memory)
WHERE n.mind = $mind AND n.embedding_model = $model_id
  AND ($labels IS NULL OR any(l IN labels(n) WHERE l IN $labels))
WITH n.uid AS uid, vector.similarity.cosine(n.embedding, $embedding) AS score
ORDER BY score DESC
LIMIT $limit
RETURN collect({uid: uid, score: score}) AS kept
