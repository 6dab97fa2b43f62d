// mode: write
// params: rows
// Upsert relationships between nodes found by uid (Memory or Run); the type is a checked
// parameter (dynamic type). row: {from_uid, to_uid, rel, props}. Endpoints were resolved
// inside the mind before writing. The existing-edge check expands from the start node
// (OPTIONAL MATCH ... WHERE other = b) because a dynamic-type MERGE is planned as a scan of
// every relationship while the store is small, and that plan stays cached during an import.
UNWIND $rows AS row
OPTIONAL MATCH (from_memory:Memory {uid: row.from_uid})
OPTIONAL MATCH (from_run:Run {uid: row.from_uid})
OPTIONAL MATCH (to_memory:Memory {uid: row.to_uid})
OPTIONAL MATCH (to_run:Run {uid: row.to_uid})
WITH row, coalesce(from_memory, from_run) AS a, coalesce(to_memory, to_run) AS b
CALL (a, b, row) {
  OPTIONAL MATCH (a)-[existing]->(other)
  WHERE other = b AND type(existing) = row.rel
  WITH a, b, row, collect(existing) AS found
  CALL (a, b, row, found) {
    WITH * WHERE size(found) = 0
    CREATE (a)-[created:$(row.rel)]->(b)
    SET created = row.props
  }
  FOREACH (edge IN found | SET edge += row.props)
}
RETURN count(*) AS linked
