// mode: write
// params: mind, rows
// changes: counters
// Count the hits recall queued since the last write (graphmind/recall/hit_counter.py): $rows are
// {uid, hits, at}, one per memory, sorted by uid; each memory gains `hits` and its last_hit_at
// becomes `at` unless it holds a later one (the digests read both). The memories are locked in
// uid order, so concurrent writers wait for each other instead of deadlocking.
UNWIND $rows AS row
WITH row ORDER BY row.uid
MATCH (n:Memory {uid: row.uid})
WHERE n.mind = $mind
SET n.hits = coalesce(n.hits, 0) + row.hits,
    n.last_hit_at = CASE WHEN n.last_hit_at > row.at THEN n.last_hit_at ELSE row.at END
RETURN count(n) AS counted
