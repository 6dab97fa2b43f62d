// mode: read
// params: mind, uids, limit
// The Dreamer's query_strategy_patterns: the given strategies, the night cycle's Patterns,
// Abstractions and Crystals (consolidated knowledge is strategic evidence), and the captured
// Experiences no Pattern exemplifies yet (its pattern speaks for the others) that still hold,
// the most proven first, experiences after the rest.
UNWIND $uids AS uid
MATCH (n:Memory {uid: uid})
WHERE n.mind = $mind AND (n:Strategy_Pattern OR n:Pattern OR n:Abstraction OR n:Crystal
      OR (n:Experience AND NOT EXISTS { (n)-[:EXEMPLIFIES]->(:Pattern) }
          AND (n.invalid_at IS NULL OR n.invalid_at > datetime())))
RETURN n.id AS id, [l IN labels(n) WHERE l <> 'Memory'][0] AS label, n {.*, embedding: null} AS props
ORDER BY n:Experience, coalesce(n.success_rate, n.confidence, 0) DESC
LIMIT $limit
