// mode: read
// params: mind, rows
// Which of the capture rows' ids a memory of the mind already holds. row: {uid, id, props}.
// same: that memory is an Experience whose every property the row gives is equal (a retried
// capture); otherwise the id names another memory, which a capture must not overwrite.
UNWIND $rows AS row
MATCH (n:Memory {uid: row.uid})
WHERE n.mind = $mind
RETURN row.id AS id, n:Experience AND all(k IN keys(row.props) WHERE n[k] = row.props[k]) AS same
