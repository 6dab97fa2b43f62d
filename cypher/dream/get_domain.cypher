// mode: read
// params: mind
// What a mind's experiences are about: its Identity's focus area, else its role.
MATCH (i:Identity)
WHERE i.mind = $mind AND coalesce(i.focus_area, i.role) IS NOT NULL
RETURN coalesce(i.focus_area, i.role) AS domain
ORDER BY i.id
LIMIT 1
