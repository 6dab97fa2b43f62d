// mode: read
// params: mind
// What recall checks first: whether any memory of the mind waits for the embedding pass, and
// the mind's vector stamp (null before its first embedding).
OPTIONAL MATCH (v:GraphmindVectors {mind: $mind})
RETURN v.stamp AS stamp,
       EXISTS { MATCH (n:Memory) WHERE n.mind = $mind AND n.embedding_pending = true } AS pending
