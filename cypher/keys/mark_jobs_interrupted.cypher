// mode: write
// params:
// At server start: jobs a stopped server left queued or running can never finish; they read
// 'interrupted' from now on.
MATCH (j:GraphmindJob)
WHERE j.status IN ['queued', 'running']
SET j.status = 'interrupted', j.updated_at = datetime()
RETURN count(j) AS interrupted
