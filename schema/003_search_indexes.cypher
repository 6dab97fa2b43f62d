// Full-text index over the text fields of every memory type (strings and string lists), and
// the vector index over embeddings. The derived text (GraphNode.derived_text) is not stored:
// the index reads the fields themselves. A unit test keeps this list equal to the models'
// TEXT_FIELDS plus `mind`: recall puts the mind in the Lucene query (mind:"felix" AND (...)),
// so the index returns almost only that mind's nodes, and the exact check stays in Cypher. The full-text index is eventually consistent: Lucene updates are applied in
// the background, off the commit path (bulk import is 10-25% faster when the server is warm);
// a query that must see the latest writes runs admin/await_text_index first.
// $embedding_dimensions comes from settings (GRAPHMIND_EMBEDDING_DIM).
CREATE FULLTEXT INDEX memory_search IF NOT EXISTS FOR (n:Memory) ON EACH
  [
   n.mind,
   n.actions, n.applicability, n.approach, n.bridge, n.communication_style, n.component,
   n.concept, n.conditions, n.connection, n.constraint_type, n.content, n.context,
   n.counterbalance, n.description, n.emotion, n.file_path, n.focus_area, n.generalization,
   n.impact, n.insight, n.issue_type, n.key_points, n.name, n.outcome, n.partner_name,
   n.possibility, n.progress_notes, n.role, n.shared_history, n.steps, n.summary, n.surprise,
   n.tension, n.text, n.themes, n.title, n.topic, n.trigger, n.why_failed
  ]
  OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
CREATE VECTOR INDEX memory_embedding IF NOT EXISTS FOR (n:Memory) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: $embedding_dimensions, `vector.similarity_function`: 'cosine'}};
