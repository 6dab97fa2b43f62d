// mode: write
// params: mind, rows
// An imported edge says a newer memory replaced an older one, as a capture states it
// (SUPERSEDES, or CONTRADICTS from a memory that is no Pattern, Abstraction or Locus: the
// dream's and a wander's contradictions replace nothing, as recall/list_replacements reads
// them): the older gets invalid_at = when the newer became valid (its valid_from, else its
// timestamp where it is a date-time (a label that declares none keeps a text), else its
// created_at, as capture and recall read it), unless it already has an invalid_at; a pattern
// also verification_status 'invalidated'. row: {new, old} (uids). Left as they are, as capture
// leaves them: an older one valid only from that time or later, a memory said to replace
// itself, and two said to replace each other (which one holds is not stated). Returns how many
// were marked, and their uids (the importer then marks the patterns built on them as a capture
// does: memory/mark_unsupported_patterns).
UNWIND $rows AS row
MATCH (new:Memory {uid: row.new})-[r:SUPERSEDES|CONTRADICTS]->(old:Memory {uid: row.old})
WHERE new.mind = $mind AND old.mind = $mind AND old <> new AND old.invalid_at IS NULL
  AND (type(r) = 'SUPERSEDES' OR NOT (new:Pattern OR new:Abstraction OR new:Locus))
  AND NOT EXISTS { (old)-[:SUPERSEDES|CONTRADICTS]->(new) }
WITH DISTINCT old, min(coalesce(new.valid_from, CASE WHEN new.timestamp IS :: ZONED DATETIME THEN new.timestamp END, new.created_at)) AS at
WHERE at IS NOT NULL AND (old.valid_from IS NULL OR old.valid_from < at)
SET old.invalid_at = at,
    old.verification_status = CASE WHEN old:Pattern THEN 'invalidated' ELSE old.verification_status END
RETURN count(old) AS marked, collect(old.uid) AS olds
