// mode: write
// params: mind, a, b, thread
// Merge two active threads into a higher-level one (never deleting them): the new Thread
// holds both threads' notes and the sum of their touches; the old ones become status
// merged, linked (:Thread)-[:MERGED_INTO]->(:Thread). $thread: {uid, id, title}, its id made
// from the pair, so a re-run (after a crash or a lost answer) finds the merge already done and
// returns it unchanged.
MATCH (a:Memory {uid: $mind + ':' + $a}), (b:Memory {uid: $mind + ':' + $b})
WHERE a:Thread AND b:Thread AND a <> b
OPTIONAL MATCH (a)-[:MERGED_INTO]->(done:Memory {uid: $thread.uid})<-[:MERGED_INTO]-(b)
WITH a, b, done
WHERE done IS NOT NULL OR (a.status = 'active' AND b.status = 'active')
FOREACH (_ IN CASE WHEN done IS NULL THEN [1] ELSE [] END |
  MERGE (t:Memory {uid: $thread.uid})
    ON CREATE SET t.created_at = datetime(), t.embedding_pending = true
  SET t:Thread, t.mind = $mind, t.id = $thread.id, t.title = $thread.title, t.status = 'active',
      t.progress_notes = coalesce(a.progress_notes, []) + coalesce(b.progress_notes, []),
      t.touches = coalesce(a.touches, 0) + coalesce(b.touches, 0),
      a.status = 'merged', b.status = 'merged'
  MERGE (a)-[:MERGED_INTO]->(t)
  MERGE (b)-[:MERGED_INTO]->(t))
WITH $thread.uid AS uid
MATCH (t:Memory {uid: uid})
RETURN t.id AS id, t.touches AS touches, size(t.progress_notes) AS notes
