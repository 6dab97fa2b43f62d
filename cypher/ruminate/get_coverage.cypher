// mode: read
// params: mind, seeds, pending, pending_limit, waiting_seats, candidates, labels, neighbours
// The coverage map of a stimulus in one mind. $seeds are the uids of the memories that matched
// it (full-text or vector matches, chosen by rumination from recall's searches); each seed
// energises up to $neighbours memories linked to it. $candidates are the vector search's
// candidates ({uid, score}, relevant or not). For each label of $labels: the ids of its seeds
// and of its energised neighbours, and the best vector score of its candidates. 'energised'
// lists every energised node with its properties and whether it is an orphan (linked to no
// other memory), for the quality and structural gaps. Findings of earlier ruminations cite
// memories but are not part of what they mean: they neither energise nor keep a memory from
// being an orphan. $pending are the uids of matching Experiences, best first: of those that
// still hold, $pending_limit are matches too, the best ones whether a Pattern exemplifies them or
// not, with $waiting_seats of the seats kept for the best that no Pattern exemplifies yet (what was
// captured since the last dream: what the patterns miss). Relevance drops an exemplified one whose
// pattern says all it shares with the stimulus; one that tells more, "Ruth's mic crackled", stays.
// No other Experience counts for its label, and no exemplified one for the label's score (an
// energised one still counts for the gap signals, as any energised memory does). $seeds may
// hold conversation turns (searched apart, and the sender's own on the topic).
CALL () {
  UNWIND $candidates AS c
  MATCH (n:Memory {uid: c.uid})
  WHERE n.mind = $mind
    AND NOT (n:Experience AND (EXISTS { (n)-[:EXEMPLIFIES]->(:Pattern) } OR n.invalid_at <= datetime()))
  RETURN collect({labels: labels(n), score: c.score}) AS scored
}
CALL () {
  UNWIND $seeds AS uid
  MATCH (s:Memory {uid: uid})
  WHERE s.mind = $mind AND NOT s:Experience
  RETURN collect(s) AS found
}
CALL () {
  UNWIND range(0, size($pending) - 1) AS i
  MATCH (s:Memory {uid: $pending[i]})
  WHERE s.mind = $mind AND s:Experience AND (s.invalid_at IS NULL OR s.invalid_at > datetime())
  WITH s, i ORDER BY i
  WITH collect({s: s, i: i, held: EXISTS { (s)-[:EXEMPLIFIES]->(:Pattern) }}) AS ranked
  WITH ranked, [r IN ranked WHERE NOT r.held][0..$waiting_seats] AS kept
  WITH kept + [r IN ranked WHERE NOT r.i IN [k IN kept | k.i]][0..$pending_limit - size(kept)] AS seats
  UNWIND seats AS seat
  WITH seat ORDER BY seat.i
  RETURN collect(seat.s) AS waiting
}
WITH scored, found + waiting AS matched
CALL (matched) {
  UNWIND matched AS s
  CALL (s) {
    MATCH (s)--(near:Memory)
    WHERE near.mind = $mind AND NOT near:Finding
    RETURN DISTINCT near
    LIMIT $neighbours
  }
  WITH DISTINCT near
  WHERE NOT near IN matched
  RETURN collect(near) AS around
}
WITH scored, matched, around
RETURN [label IN $labels | {
          label: label,
          matched: [n IN matched WHERE label IN labels(n) | n.id],
          neighbours: [n IN around WHERE label IN labels(n)
                         AND NOT (n:Experience AND (EXISTS { (n)-[:EXEMPLIFIES]->(:Pattern) }
                                                    OR n.invalid_at <= datetime())) | n.id],
          best_score: reduce(best = null, c IN [x IN scored WHERE label IN x.labels] |
                             CASE WHEN best IS NULL OR c.score > best THEN c.score ELSE best END)
        }] AS coverage,
       [n IN matched + around | {
          id: n.id,
          label: [l IN labels(n) WHERE l <> 'Memory'][0],
          props: n {.*, embedding: null},
          orphan: NOT EXISTS { (n)--(other:Memory) WHERE other.mind = $mind AND NOT other:Finding }
        }] AS energised
