// mode: read
// params: mind, sender
// The partnership with the sender of a stimulus (partner_name, any case): who is speaking,
// for the Context Object's identity, whatever the stimulus is about. Partnerships are few.
MATCH (n:Partnership)
WHERE n.mind = $mind AND toLower(n.partner_name) = toLower($sender)
RETURN n.id AS id, n {.*, embedding: null} AS props
ORDER BY n.trust_level DESC, n.id
LIMIT 1
