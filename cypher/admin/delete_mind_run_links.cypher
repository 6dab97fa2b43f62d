// mode: autocommit
// params: mind
// Delete the relationships from one mind's runs to its memories, from the memories' side, in
// batches of 1000 memories, before admin/delete_mind_runs deletes the runs: a dream run holds
// one CONSUMED relationship per experience it read (100,000 a run), so runs deleted with
// DETACH carried a million relationships in one batch, and a million-memory mind's delete ran
// the server out of heap. A memory has a few runs' relationships at most.
MATCH (n:Memory)
WHERE n.mind = $mind
CALL (n) {
  MATCH (n)<-[r]-(:Run)
  DELETE r
} IN TRANSACTIONS OF 1000 ROWS
