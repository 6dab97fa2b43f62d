// mode: read
// params: mind, query, limit
// Full-text search (Lucene syntax) over the memories of one mind, best first. The index spans
// every mind, so it over-fetches and keeps this mind's hits; recall builds on this.
CALL db.index.fulltext.queryNodes('memory_text', $query, {limit: $limit * 20}) YIELD node, score
WHERE node.mind = $mind
RETURN node.id AS id, [l IN labels(node) WHERE l <> 'Memory'][0] AS label, score
ORDER BY score DESC
LIMIT $limit
