// mode: write
// params: mind, uids
// Delete memories a strict import wrote early, before it found a bad line in its file: each
// was created by that import moments before (graphmind/io/early.py), and nothing else links
// to it but what the import itself wrote.
UNWIND $uids AS uid
MATCH (n:Memory {uid: uid})
WHERE n.mind = $mind
DETACH DELETE n
RETURN count(*) AS deleted
