// mode: write
// params: mind, holder, seconds
// Take (or renew) the dream lease of a mind: granted when it is free, expired or already
// $holder's. The SET before the read takes the node's write lock, so two runs that race
// read the holder one after the other.
MERGE (l:GraphmindLease {key: $mind + '/dream'})
  ON CREATE SET l.mind = $mind
SET l.touched_at = datetime()
WITH l, (l.holder IS NULL OR l.until < datetime() OR l.holder = $holder) AS free
SET l.since = CASE WHEN free AND coalesce(l.holder, '') <> $holder THEN datetime() ELSE l.since END,
    l.holder = CASE WHEN free THEN $holder ELSE l.holder END,
    l.until = CASE WHEN free THEN datetime() + duration({milliseconds: toInteger($seconds * 1000)})
                   ELSE l.until END
RETURN free AS acquired, l.holder AS holder, toString(l.since) AS since, toString(l.until) AS until
