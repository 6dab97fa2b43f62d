// mode: read
// params: mind, session_id
// The loci a session's walk generated that are still in hot memory, oldest visit first.
MATCH (l:Memory)
WHERE l.mind = $mind AND l:Locus AND l.session_id = $session_id AND coalesce(l.tier, 'hot') = 'hot'
RETURN l.id AS id, l.concept AS concept, coalesce(l.domains, []) AS domains,
       l.interestingness AS interestingness, toString(coalesce(l.last_visited, l.created_at)) AS visited
ORDER BY visited, id
