// mode: write
// params: mind, rows
// An imported edge says a newer memory replaced an older one (SUPERSEDES or CONTRADICTS), as a
// capture states it: the older gets invalid_at = when the newer became valid (its valid_from,
// else its created_at), unless it already has an invalid_at; a pattern also verification_status
// 'invalidated'. row: {new, old} (uids). An older one valid only from that time or later is left
// as it is, as capture leaves it. Returns how many were marked.
UNWIND $rows AS row
MATCH (new:Memory {uid: row.new})-[:SUPERSEDES|CONTRADICTS]->(old:Memory {uid: row.old})
WHERE new.mind = $mind AND old.mind = $mind AND old.invalid_at IS NULL
WITH DISTINCT old, min(coalesce(new.valid_from, new.created_at)) AS at
WHERE at IS NOT NULL AND (old.valid_from IS NULL OR old.valid_from < at)
SET old.invalid_at = at,
    old.verification_status = CASE WHEN old:Pattern THEN 'invalidated' ELSE old.verification_status END
RETURN count(old) AS marked
