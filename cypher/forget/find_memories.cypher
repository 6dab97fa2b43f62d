// mode: read
// params: mind, uids
// The memories a forget names, with their properties (embeddings left out). An id of another
// mind has another uid: it is not found here, as if it did not exist.
UNWIND $uids AS uid
MATCH (m:Memory {uid: uid})
WHERE m.mind = $mind
RETURN m.uid AS uid, m.id AS id, [l IN labels(m) WHERE l <> 'Memory'][0] AS label,
       m {.*, embedding: null, centroid: null, theme_vector: null} AS props
ORDER BY id
