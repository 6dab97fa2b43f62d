// mode: write
// params: mind, rows, loci
// Store warm memory compressed from hot loci and move those loci to the warm tier.
// row: {uid, id, props, expires_at (ISO text)}; $loci: ids of the loci compressed.
UNWIND $rows AS row
MERGE (w:Memory {uid: row.uid})
  ON CREATE SET w.created_at = datetime(), w.embedding_pending = true
SET w:WarmMemory, w += row.props, w.mind = $mind, w.id = row.id,
    w.expires_at = datetime(row.expires_at), w.last_accessed_at = datetime()
WITH count(w) AS written
CALL (written) {
  UNWIND $loci AS locus
  MATCH (l:Memory {uid: $mind + ':' + locus})
  SET l.tier = 'warm'
  RETURN count(l) AS moved
}
RETURN written, moved
