// mode: read
// params: mind, model_id
// Memories of one mind that lack an embedding by model $model_id (never embedded, or embedded
// by another model): what 'graphmind embed' checks besides the pending ones.
MATCH (n:Memory)
WHERE n.mind = $mind AND n.embedding_pending IS NULL
  AND (n.embedding_model IS NULL OR n.embedding_model <> $model_id)
RETURN n.uid AS uid, [l IN labels(n) WHERE l <> 'Memory'][0] AS label,
       n {.*, embedding: null} AS props
