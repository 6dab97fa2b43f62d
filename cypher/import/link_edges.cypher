// mode: write
// params: rows
// Upsert relationships between two nodes of one mind. row: {from_uid, from_base, to_uid,
// to_base, rel, props, dates, key, new}; *_base is 'Memory' or 'Run' (the endpoint's shared
// label, known to the importer), so each endpoint costs one unique-index seek. The type is a
// checked parameter (dynamic type). dates holds ISO-8601 text; key names the properties that
// tell parallel relationships of the type apart (STEP: session, step_number), and an existing
// relationship matches on them too.
// new = true when the importer knows the edge cannot exist yet (both endpoints created by
// this import, first of its (from, type, to) in the file): it is created without a check.
// Otherwise the existing edge is found by expanding from the start node (OPTIONAL MATCH ...
// WHERE other = b): a dynamic-type MERGE is planned as a scan of every relationship while
// the store is small, and that plan stays cached for the rest of an import.
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
CALL (a, b, row) {
  WITH * WHERE row.new
  CREATE (a)-[created:$(row.rel)]->(b)
  SET created = row.props
  FOREACH (key IN keys(row.dates) | SET created[key] = datetime(row.dates[key]))
}
CALL (a, b, row) {
  WITH * WHERE NOT row.new
  OPTIONAL MATCH (a)-[existing]->(other)
  WHERE other = b AND type(existing) = row.rel AND all(key IN row.key WHERE existing[key] = row.props[key])
  WITH a, b, row, collect(existing) AS found
  CALL (a, b, row, found) {
    WITH * WHERE size(found) = 0
    CREATE (a)-[created:$(row.rel)]->(b)
    SET created = row.props
    FOREACH (key IN keys(row.dates) | SET created[key] = datetime(row.dates[key]))
  }
  FOREACH (edge IN found |
    SET edge += row.props
    FOREACH (key IN keys(row.dates) | SET edge[key] = datetime(row.dates[key])))
}
RETURN count(*) AS linked
