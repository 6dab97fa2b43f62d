// mode: read
// params: mind
// How many nodes of each typed label are kept for the record but out of use now: retired or
// pruned by a dream, invalidated by one, or past their invalid_at (what recall ranks last).
MATCH (n:Memory)
WHERE n.mind = $mind
  AND (n.status IN ['retired', 'pruned']
    OR (n.verification_status = 'invalidated' AND n.invalid_at IS NULL)
    OR n.invalid_at <= datetime())
UNWIND [l IN labels(n) WHERE l <> 'Memory'] AS label
RETURN label, count(*) AS count
ORDER BY label
