// mode: read
// params: mind, uids
// The memories that replace the given ones of one mind: those that supersede or contradict
// them, directly or through a chain of replacements (at most 5 deep), nearest first; the
// caller keeps those valid now. Without their embeddings.
UNWIND $uids AS uid
MATCH path = (old:Memory {uid: uid})<-[:SUPERSEDES|CONTRADICTS*1..5]-(new:Memory)
WHERE old.mind = $mind AND all(n IN nodes(path) WHERE n.mind = $mind)
RETURN uid AS old, new.uid AS uid, [l IN labels(new) WHERE l <> 'Memory'][0] AS label,
       new {.*, embedding: null} AS props
ORDER BY old, length(path), new.uid
