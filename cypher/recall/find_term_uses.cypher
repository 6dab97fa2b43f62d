// mode: read
// params: mind, queries, exclude, fetch
// Which of the terms a memory of the mind holds (full-text index), the memories $exclude aside.
// query: {term, lucene} with lucene = mind:"m" AND (term). forget: a word of the forgotten text
// no other memory holds (those forgotten and what derives from them are $exclude) is
// distinctive and cut out of the derived text; ask: a name of a question no memory holds is
// one the mind has never heard of.
UNWIND $queries AS q
CALL (q) {
  CALL db.index.fulltext.queryNodes('memory_search', q.lucene, {limit: $fetch}) YIELD node
  WITH node
  WHERE node.mind = $mind AND NOT node.uid IN $exclude
  RETURN count(node) AS elsewhere
}
RETURN q.term AS term, elsewhere > 0 AS elsewhere
