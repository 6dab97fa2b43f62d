// mode: autocommit
// params: timeout_s
// Block until every index is ONLINE, or fail after the timeout.
CALL db.awaitIndexes($timeout_s)
