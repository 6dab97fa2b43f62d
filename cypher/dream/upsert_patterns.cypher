// mode: write
// params: mind, run_uid, rows
// Write the patterns a dream created, grew, pruned or re-verified;
// idempotent on uid. row: {uid, id, props, created, produced, members: [experience uid], refreshed_at}.
// Members get (:Experience)-[:EXEMPLIFIES]->(:Pattern); the patterns the run created or
// changed get (:DreamRun)-[:PRODUCED {created}]->(:Pattern). A pattern whose text changed is
// flagged embedding_pending for the embedding pass. A pattern extracted again (row.refreshed_at: when
// the run began) is stale no more, unless a capture made it stale since, or until the next of its
// experiences stops holding (a replacement dated later: its invalid_at) (graphmind.dream.refresh).
MATCH (run:DreamRun {uid: $run_uid})
UNWIND $rows AS row
MERGE (p:Memory {uid: row.uid})
  ON CREATE SET p.created_at = datetime(), p.embedding_pending = true
  ON MATCH SET p.embedding_pending = CASE
    WHEN p.embedding_pending OR p.description <> row.props.description THEN true END
SET p:Pattern, p += row.props, p.mind = $mind, p.id = row.id
WITH run, p, row
CALL (p, row) {
  WITH p, row WHERE row.refreshed_at IS NOT NULL AND p.stale_since <= datetime(row.refreshed_at)
  OPTIONAL MATCH (e:Experience)-[:EXEMPLIFIES]->(p)
  WHERE e.invalid_at > datetime(row.refreshed_at)
  WITH p, min(e.invalid_at) AS next
  SET p.stale_since = next
}
FOREACH (_ IN CASE WHEN row.produced THEN [1] ELSE [] END |
  MERGE (run)-[produced:PRODUCED]->(p)
  SET produced.created = row.created)
WITH p, row
CALL (p, row) {
  UNWIND row.members AS member
  MATCH (e:Memory {uid: member})
  WHERE e.mind = $mind
  MERGE (e)-[:EXEMPLIFIES]->(p)
  RETURN count(e) AS linked
}
RETURN count(p) AS written, sum(linked) AS linked
