// mode: read
// params: mind
// The resonances of a mind that are not invalidated, across all its sessions.
MATCH (r:Resonance)
WHERE r.mind = $mind AND coalesce(r.status, 'candidate') <> 'invalidated'
RETURN r.id AS id, r.themes AS themes, coalesce(r.strength, 1.0) AS strength,
       coalesce(r.occurrences, 1) AS occurrences, coalesce(r.status, 'candidate') AS status,
       coalesce(r.decay_rate, 0.1) AS decay_rate, toString(r.last_reinforced_at) AS last_reinforced_at,
       r.theme_vector AS theme_vector
ORDER BY id
