// mode: autocommit
// params: mind
// Delete every memory of one mind with what relationships are left, in batches, after
// admin/delete_mind_relationships (admin/delete_mind_runs deletes its Run nodes). One label per
// query: a seek of Memory|Run is a union of two seeks, and the planner keeps the whole union
// (Distinct, Eager) in the outer transaction's memory (tests/integration/test_delete_plans.py).
MATCH (n:Memory)
WHERE n.mind = $mind
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS
