// mode: write
// params: mind, id
// Mark one topic entry absorbed (digested into a thread or a higher insight); kept, never deleted.
MATCH (e:Memory {uid: $mind + ':' + $id})
WHERE e:TopicEntry
SET e.status = 'absorbed', e.absorbed_at = datetime()
RETURN e.id AS id
