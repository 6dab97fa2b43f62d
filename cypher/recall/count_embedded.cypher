// mode: read
// params: mind, model_id
// How many memories of one mind carry an embedding by $model_id, and how many by another model.
MATCH (n:Memory)
WHERE n.mind = $mind AND n.embedding_model IS NOT NULL
RETURN count(CASE WHEN n.embedding_model = $model_id THEN 1 END) AS current,
       count(CASE WHEN n.embedding_model <> $model_id THEN 1 END) AS stale
