// mode: read
// params: mind
// The threads of one mind with their progress notes.
MATCH (t:Thread)
WHERE t.mind = $mind
RETURN t.id AS id, t.title AS title, coalesce(t.status, 'active') AS status,
       coalesce(t.progress_notes, []) AS progress_notes, coalesce(t.touches, 0) AS touches
ORDER BY id
