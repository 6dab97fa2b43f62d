// mode: read
// params: mind, sessions
// The warm memory of the wander sessions $sessions: text compressed from their hot loci, with
// no edge back to them (forget scrubs it when a locus of the session came from a forgotten memory).
MATCH (w:WarmMemory)
WHERE w.mind = $mind AND w.session_id IN $sessions
RETURN w.uid AS uid
ORDER BY uid
