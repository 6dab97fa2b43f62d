// mode: write
// params: mind, keep
// Retire the active abstractions of a mind that the new ladder no longer holds (ids not in
// $keep): status retired, kept with their edges for the record.
MATCH (a:Abstraction)
WHERE a.mind = $mind AND coalesce(a.status, 'active') = 'active' AND NOT a.id IN $keep
SET a.status = 'retired'
RETURN count(a) AS retired
