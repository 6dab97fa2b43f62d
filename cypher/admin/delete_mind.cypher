// mode: autocommit
// params: mind
// Delete every node of one mind with its relationships, in batches.
MATCH (n:Memory|Run)
WHERE n.mind = $mind
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS
