// mode: autocommit
// params:
// Wait until the eventually consistent full-text index has applied every committed write.
CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
