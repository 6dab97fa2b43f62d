// mode: read
// params: mind, query, labels, fetch, limit
// Full-text (Lucene) matches among the memories of one mind, best first. Like the vector
// search it over-fetches from an index that spans every mind; 'fetched' tells whether the
// index ran out of candidates, 'own' how many of them were this mind's.
CALL db.index.fulltext.queryNodes('memory_text', $query, {limit: $fetch}) YIELD node, score
WITH count(*) AS fetched,
     collect(CASE WHEN node.mind = $mind
                   AND ($labels IS NULL OR any(l IN labels(node) WHERE l IN $labels))
              THEN {uid: node.uid, score: score} END) AS own
RETURN fetched, size(own) AS own, own[0..$limit] AS kept
