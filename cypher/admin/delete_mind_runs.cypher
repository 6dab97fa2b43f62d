// mode: autocommit
// params: mind
// Delete every Run node of one mind (dream runs, wander sessions, forget runs) with its
// relationships, in batches; admin/delete_mind deletes its memories.
MATCH (n:Run)
WHERE n.mind = $mind
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS
