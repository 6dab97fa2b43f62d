// mode: write
// params: mind, holder
// Give the dream lease of a mind back (only its holder can).
MATCH (l:GraphmindLease {key: $mind + '/dream'})
WHERE l.holder = $holder
SET l.holder = null, l.until = datetime()
RETURN count(l) AS released
