// mode: write
// params: mind
// Remove the vector stamp of a deleted mind (see schema/006_vector_stamp.cypher).
MATCH (v:GraphmindVectors {mind: $mind})
DELETE v
RETURN count(*) AS deleted
