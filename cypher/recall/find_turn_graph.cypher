// mode: read
// params: mind, uids, names, start, end, window_limit, entity_fetch, entity_limit
// Everything recall's graph expansion reads, as one row: the seed turns among $uids (the hybrid
// hits; other memories are skipped) with the participants of their sessions, the date of the
// mind's latest session (what a question's time expressions are read against), and the turns the
// expansion can add: those up to 2 NEXT edges (turn_expand.NEIGHBOURS) from a seed, $window_limit
// turns of the earliest sessions dated from $start to $end (ISO dates, inclusive; null for no
// window), and the best $entity_limit turns whose text has a word starting with one of $names
// (capitalised words of the question; a participant's name is left out) among the first
// $entity_fetch memories the full-text index finds. Each read starts from an index seek or a walk
// from the seeds, so the cost follows what is returned, not the size of the mind.
CALL {
  UNWIND $uids AS uid
  MATCH (t:Memory {uid: uid})-[:IN_SESSION]->(s:Session)
  WHERE t.mind = $mind AND t:Turn AND s.mind = $mind
  RETURN collect(t) AS seeds, reduce(all = [], p IN collect(s.participants) | all + p) AS speakers
}
CALL {
  MATCH (l:Session)
  WHERE l.mind = $mind AND l.started_at IS NOT NULL
  RETURN toString(date(l.started_at)) AS today
  ORDER BY l.mind DESC, l.started_at DESC
  LIMIT 1
}
WITH seeds, speakers, today,
     [n IN $names WHERE NOT n IN speakers AND n =~ '[A-Za-z]+' | toLower(n) + '*'] AS prefixes
CALL {
  WITH seeds, prefixes
  CALL {
    WITH seeds
    UNWIND seeds AS seed
    MATCH (seed)-[:NEXT*1..2]-(t:Turn)
    WHERE t.mind = $mind
    RETURN t
    UNION
    WITH $start AS start, $end AS end
    WHERE start IS NOT NULL AND end IS NOT NULL
    MATCH (s:Session)
    WHERE s.mind = $mind
      AND s.started_at >= datetime(start) - duration('P1D') AND s.started_at < datetime(end) + duration('P2D')
      AND date(s.started_at) >= date(start) AND date(s.started_at) <= date(end)
    WITH s ORDER BY s.mind, s.started_at LIMIT $window_limit
    MATCH (t:Turn)-[:IN_SESSION]->(s)
    WHERE t.mind = $mind
    WITH t LIMIT $window_limit
    RETURN t
    UNION
    WITH prefixes
    WITH prefixes WHERE size(prefixes) > 0
    CALL db.index.fulltext.queryNodes(
      'memory_search',
      'mind:"' + $mind + '" AND text:(' + reduce(q = head(prefixes), p IN tail(prefixes) | q + ' OR ' + p) + ')',
      {limit: $entity_fetch}
    ) YIELD node
    WITH node AS t
    WHERE t:Turn AND t.mind = $mind
    WITH t LIMIT $entity_limit
    RETURN t
  }
  RETURN collect(DISTINCT t) AS more
}
UNWIND seeds + [t IN more WHERE NOT t IN seeds] AS t
MATCH (t)-[:IN_SESSION]->(s:Session)
WHERE s.mind = $mind
RETURN today, speakers,
       collect({uid: t.uid, id: t.id, session: s.id, position: t.position, speaker: t.speaker,
                day: toString(date(s.started_at)), text: t.text}) AS turns,
       [t IN seeds | t.uid] AS seed_uids
