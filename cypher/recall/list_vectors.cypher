// mode: read
// params: mind, model_id
// Every embedding of one mind made by $model_id, with uid and label: what recall's in-memory
// vector cache is built from.
MATCH (n:Memory)
WHERE n.mind = $mind AND n.embedding_model = $model_id
RETURN n.uid AS uid, [l IN labels(n) WHERE l <> 'Memory'][0] AS label, n.embedding AS embedding
