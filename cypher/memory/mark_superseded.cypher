// mode: write
// params: mind, new_uid, rows
// A newer memory of one mind replaces older ones (stated at capture). row: {old (uid), rel
// ('SUPERSEDES' or 'CONTRADICTS', from the code, never from user text), at (ISO-8601)}: the
// older is kept and gets invalid_at = at (an earlier invalid_at stays), a pattern also
// verification_status 'invalidated'; (new)-[:SUPERSEDES|CONTRADICTS]->(old). An older one valid
// only from `at` or later is left unchanged and returned in `too_late` (the caller rolls back).
MATCH (new:Memory {uid: $new_uid})
WHERE new.mind = $mind
UNWIND $rows AS row
MATCH (old:Memory {uid: row.old})
WHERE old.mind = $mind AND old <> new
WITH new, old, row, datetime(row.at) AS at
WITH new, old, row, at, old.valid_from IS NULL OR old.valid_from < at AS fits
FOREACH (_ IN CASE WHEN fits THEN [1] ELSE [] END |
  SET old.invalid_at = CASE WHEN old.invalid_at IS NULL OR old.invalid_at > at THEN at ELSE old.invalid_at END,
      old.verification_status = CASE WHEN old:Pattern THEN 'invalidated' ELSE old.verification_status END
  MERGE (new)-[:$(row.rel)]->(old))
RETURN collect(old.id) AS found, collect(CASE WHEN NOT fits THEN old.id END) AS too_late
