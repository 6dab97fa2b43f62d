// mode: read
// params: mind, names
// For each case-folded name of $names: the mind's Partnership of that partner_name, else its
// Identity of that name (speakers of imported conversations link SPOKEN_BY to it: the mind
// speaking is itself, no Person).
MATCH (n:Memory)
WHERE n.mind = $mind
  AND ((n:Partnership AND toLower(n.partner_name) IN $names) OR (n:Identity AND toLower(n.name) IN $names))
WITH toLower(coalesce(n.partner_name, n.name)) AS name, n
ORDER BY CASE WHEN n:Partnership THEN 0 ELSE 1 END, n.id
WITH name, collect(n.id)[0] AS id
RETURN id, name
ORDER BY id
