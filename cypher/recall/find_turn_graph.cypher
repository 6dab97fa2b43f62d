// mode: read
// params: mind, uids, start, end, names
// The conversation turns of one mind that recall's graph expansion looks at: every turn of the
// sessions holding the seed turns $uids, of the sessions started between the ISO dates $start and
// $end (both null for no window), and every turn whose text names one of $names (lower case).
MATCH (seed:Turn)-[:IN_SESSION]->(home:Session)
WHERE seed.mind = $mind AND seed.uid IN $uids AND home.mind = $mind
WITH collect(DISTINCT home.id) AS homes
MATCH (t:Turn)-[:IN_SESSION]->(s:Session)
WHERE t.mind = $mind AND s.mind = $mind
  AND (s.id IN homes
       OR ($start IS NOT NULL AND date(datetime(s.started_at)) >= date($start)
           AND date(datetime(s.started_at)) <= date($end))
       OR any(name IN $names WHERE toLower(t.text) CONTAINS name))
RETURN t.uid AS uid, t.id AS id, s.id AS session, t.position AS position, t.speaker AS speaker,
       toString(date(datetime(s.started_at))) AS day, t.text AS text
