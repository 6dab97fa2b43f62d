// mode: read
// params: id
// One REST job.
MATCH (j:GraphmindJob {id: $id})
RETURN j.id AS id, j.mind AS mind, j.kind AS kind, j.status AS status, j.progress AS progress,
       j.result AS result, j.error AS error, toString(j.created_at) AS created_at,
       toString(j.updated_at) AS updated_at
