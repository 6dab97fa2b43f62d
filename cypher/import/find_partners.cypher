// mode: read
// params: mind, names
// The Partnerships of a mind whose partner_name, case-folded, is one of $names (speakers of
// imported conversations link SPOKEN_BY to them).
MATCH (n:Memory)
WHERE n.mind = $mind AND n:Partnership AND toLower(n.partner_name) IN $names
RETURN n.id AS id, toLower(n.partner_name) AS name
ORDER BY id
