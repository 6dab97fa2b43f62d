// mode: autocommit
// params: mind
// Delete the relationships of one mind's memories, in batches of relationships, before
// admin/delete_mind deletes the nodes: a batch of nodes deleted with DETACH carries all their
// relationships, and a mind whose speakers or sessions each hold thousands of them made one
// batch exceed the server's transaction memory (a million-turn mind did).
MATCH (n:Memory)-[r]->()
WHERE n.mind = $mind
CALL (r) { DELETE r } IN TRANSACTIONS OF 10000 ROWS
