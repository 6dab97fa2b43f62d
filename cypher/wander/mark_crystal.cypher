// mode: write
// params: mind, id, expected, status, approved_by
// Change a crystal's status from $expected (the caller checked the lifecycle) and/or record a
// human approval ($approved_by not null). No row when the crystal is missing or moved on.
MATCH (c:Memory {uid: $mind + ':' + $id})
WHERE c:Crystal AND coalesce(c.status, 'active') = $expected
SET c.status = $status,
    c.human_approved = CASE WHEN $approved_by IS NULL THEN coalesce(c.human_approved, false) ELSE true END,
    c.human_approved_by = coalesce($approved_by, c.human_approved_by),
    c.human_approved_at = CASE WHEN $approved_by IS NULL THEN c.human_approved_at ELSE datetime() END
RETURN c.id AS id
