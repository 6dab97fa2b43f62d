// mode: read
// params: mind, rows, fields
// Which of the capture rows' ids a memory of the mind already holds. row: {uid, id, props}.
// same: that memory is an Experience whose every property the row gives is equal, and which holds
// none of the caller-given $fields the row leaves out (a retried capture); otherwise the id names
// another memory, which a capture must not overwrite.
UNWIND $rows AS row
MATCH (n:Memory {uid: row.uid})
WHERE n.mind = $mind
RETURN row.id AS id,
       n:Experience AND all(k IN keys(row.props) WHERE n[k] = row.props[k])
         AND all(k IN $fields WHERE n[k] IS NULL OR k IN keys(row.props)) AS same
