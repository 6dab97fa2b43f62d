// mode: write
// params: rows
// MERGE relationships between nodes found by uid (Memory or Run); the type is a checked parameter.
// row: {from_uid, to_uid, rel, props}. Endpoints were resolved inside the mind before writing.
UNWIND $rows AS row
OPTIONAL MATCH (from_memory:Memory {uid: row.from_uid})
OPTIONAL MATCH (from_run:Run {uid: row.from_uid})
OPTIONAL MATCH (to_memory:Memory {uid: row.to_uid})
OPTIONAL MATCH (to_run:Run {uid: row.to_uid})
WITH row, coalesce(from_memory, from_run) AS a, coalesce(to_memory, to_run) AS b
CALL (a, b, row) {
  MERGE (a)-[r:$(row.rel)]->(b)
  SET r += row.props
}
RETURN count(*) AS linked
