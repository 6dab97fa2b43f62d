// mode: read
// params: mind, query, labels, fetch, limit
// Full-text (Lucene) matches among the memories of one mind, best first. $query names the
// mind (mind:"m" AND (...)), so nearly every candidate is this mind's, unless the mind holds
// most of the database (recall/caches.py TextScopes: the clause would make Lucene visit all of
// it); a mind whose name's words also make up another's (a, a-b) can share candidates too, hence
// the exact check and the over-fetch. 'fetched' tells whether the index ran out, 'own' how many
// were this mind's.
CALL db.index.fulltext.queryNodes('memory_search', $query, {limit: $fetch}) YIELD node, score
WITH count(*) AS fetched,
     collect(CASE WHEN node.mind = $mind
                   AND ($labels IS NULL OR any(l IN labels(node) WHERE l IN $labels))
              THEN {uid: node.uid, score: score} END) AS own
RETURN fetched, size(own) AS own, own[0..$limit] AS kept
