// mode: write
// params: rows
// Create relationships known to be new: both endpoints were created by this same import and
// the (from, type, to) triple is the first of its kind in the file, so no existence check is
// needed (import/link_edges handles every other edge). Rows are as in import/link_edges.
UNWIND $rows AS row
CALL (row) {
  WITH row WHERE row.from_base = 'Memory' MATCH (a:Memory {uid: row.from_uid}) RETURN a
  UNION
  WITH row WHERE row.from_base = 'Run' MATCH (a:Run {uid: row.from_uid}) RETURN a
}
CALL (row) {
  WITH row WHERE row.to_base = 'Memory' MATCH (b:Memory {uid: row.to_uid}) RETURN b
  UNION
  WITH row WHERE row.to_base = 'Run' MATCH (b:Run {uid: row.to_uid}) RETURN b
}
CREATE (a)-[created:$(row.rel)]->(b)
SET created = row.props
RETURN count(created) AS linked
