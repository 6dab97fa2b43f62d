// mode: read
// params: mind
// The topic entries of one mind, with what the digests read.
MATCH (e:TopicEntry)
WHERE e.mind = $mind
RETURN e.id AS id, e.topic AS topic, e.text AS text, toString(e.date) AS date,
       coalesce(e.hits, 0) AS hits, toString(e.last_hit_at) AS last_hit_at,
       coalesce(e.status, 'active') AS status
ORDER BY topic, id
