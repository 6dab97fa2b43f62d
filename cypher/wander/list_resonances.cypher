// mode: read
// params: mind, known
// The resonances of a mind that are not invalidated, across all its sessions; the theme vector
// only of those whose id is not in $known (a theme vector never changes once written).
MATCH (r:Resonance)
USING INDEX r:Resonance(mind)
WHERE r.mind = $mind AND coalesce(r.status, 'candidate') <> 'invalidated'
RETURN r.id AS id, r.themes AS themes, coalesce(r.strength, 1.0) AS strength,
       coalesce(r.occurrences, 1) AS occurrences, coalesce(r.status, 'candidate') AS status,
       coalesce(r.decay_rate, 0.1) AS decay_rate, toString(r.last_reinforced_at) AS last_reinforced_at,
       CASE WHEN r.id IN $known THEN null ELSE r.theme_vector END AS theme_vector
ORDER BY id
