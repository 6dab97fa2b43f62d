// mode: autocommit
// params: mind
// Delete the relationships of one mind's memories, in batches of 1000 memories' outgoing ones,
// before admin/delete_mind deletes the nodes: a batch of nodes deleted with DETACH carries all
// their relationships, incoming included, and a mind whose speakers or sessions each hold
// thousands of them made one batch exceed the server's transaction memory (a million-turn mind
// did). Matching the relationships in the outer query instead makes the plan Eager: every
// relationship of the mind held in memory (tests/integration/test_delete_plans.py).
MATCH (n:Memory)
WHERE n.mind = $mind
CALL (n) {
  MATCH (n)-[r]->()
  DELETE r
} IN TRANSACTIONS OF 1000 ROWS
