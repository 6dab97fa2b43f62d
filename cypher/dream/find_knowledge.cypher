// mode: read
// params: mind, ids, per_pattern
// Patterns by id with their ladder path (the active abstractions above, level 2 up), their
// examples (up to $per_pattern of the experiences that EXEMPLIFY them, those the pattern cites
// first: the caller puts the ones about the question first) and their failures (up to
// five of their experiences that failed: the evidence of a negative result); an example
// superseded since (its invalid_at passed) is marked outdated and comes after the others
// (each example carries its invalid_at);
// outdated_since: when the last of its experiences became invalid, if every one of them has;
// pattern.stale_since: from when experiences of it stopped holding since it was worded;
// experiences: how many exemplify it (an imported pattern may carry no usage_count).
UNWIND $ids AS pid
MATCH (p:Memory {uid: $mind + ':' + pid})
WHERE p:Pattern
OPTIONAL MATCH (l2:Abstraction)-[:SUBSUMES]->(p) WHERE l2.status = 'active'
OPTIONAL MATCH (l3:Abstraction)-[:SUBSUMES]->(l2) WHERE l3.status = 'active'
OPTIONAL MATCH (l4:Abstraction)-[:SUBSUMES]->(l3) WHERE l4.status = 'active'
CALL (p) {
  MATCH (e:Experience)-[:EXEMPLIFIES]->(p)
  RETURN min(CASE WHEN e.invalid_at <= datetime() THEN 1 ELSE 0 END) = 1 AS every_out, max(e.invalid_at) AS last_out
}
RETURN p.id AS id, p {.name, .description, .conditions, .actions, .success_rate, .usage_count,
         .confidence, .verification_status, .status, .pattern_type, .success_count, .progress_count,
         .failure_count, .stale_since} AS pattern,
       [a IN [l2, l3, l4] WHERE a IS NOT NULL | a {.id, .level, .name, .generalization}] AS ladder,
       CASE WHEN every_out THEN last_out END AS outdated_since,
       COUNT { (e:Experience)-[:EXEMPLIFIES]->(p) } AS experiences,
       COLLECT { MATCH (e:Experience)-[:EXEMPLIFIES]->(p)
                 WITH e, NOT e.id IN coalesce(p.examples, []) AS other
                 RETURN e {.id, .description, .outcome, .invalid_at,
                           outdated: coalesce(e.invalid_at <= datetime(), false)} AS e
                 ORDER BY e.outdated, other, e.id LIMIT $per_pattern } AS examples,
       COLLECT { MATCH (e:Experience)-[:EXEMPLIFIES]->(p) WHERE e.outcome = 'failure'
                 RETURN e {.id, .description, .outcome, .invalid_at,
                           outdated: coalesce(e.invalid_at <= datetime(), false)} AS e
                 ORDER BY e.outdated, e.id LIMIT 5 } AS failures
