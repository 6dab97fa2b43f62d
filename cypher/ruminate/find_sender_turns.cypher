// mode: read
// params: mind, sender, limit
// The latest $limit conversation turns the sender of a stimulus spoke in one mind: those SPOKEN_BY
// the mind's Partnership or Person of that name (any case; how an imported conversation or
// Mind.add_conversation links a turn to its speaker), latest first. Rumination keeps those on
// the stimulus's topic. Speakers are few; the walk from them reads only their turns.
MATCH (who:Partnership|Person)
WHERE who.mind = $mind AND toLower(coalesce(who.partner_name, who.name, '')) = toLower($sender)
MATCH (t:Turn)-[:SPOKEN_BY]->(who)
WHERE t.mind = $mind
WITH DISTINCT t
RETURN t.id AS id, 'Turn' AS label, t {.*, embedding: null} AS props
ORDER BY coalesce(t.timestamp, t.created_at) DESC, t.position DESC, t.id
LIMIT $limit
