// mode: read
// params: mind, queries, exclude, fetch
// Which words of the forgotten text another memory of the mind holds too (full-text index).
// query: {term, lucene} with lucene = mind:"m" AND (term); the memories $exclude (the ones
// forgotten and what derives from them) do not count. A word no other memory holds is
// distinctive: graphmind.forget cuts it out of the derived text.
UNWIND $queries AS q
CALL (q) {
  CALL db.index.fulltext.queryNodes('memory_search', q.lucene, {limit: $fetch}) YIELD node
  WITH node
  WHERE node.mind = $mind AND NOT node.uid IN $exclude
  RETURN count(node) AS elsewhere
}
RETURN q.term AS term, elsewhere > 0 AS elsewhere
