// mode: write
// params: id, mind, kind, status, progress, result, error
// Create or update one REST job (a dream run in the background): what GET /api/v1/jobs/{id} reads.
MERGE (j:GraphmindJob {id: $id})
  ON CREATE SET j.mind = $mind, j.kind = $kind, j.created_at = datetime()
SET j.status = $status, j.progress = $progress, j.result = $result, j.error = $error, j.updated_at = datetime()
RETURN j.id AS id
