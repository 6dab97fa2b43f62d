// mode: read
// params:
// Every mind of the database with its node counts: memories, and run records.
MATCH (n:Memory|Run)
WHERE n.mind IS NOT NULL
RETURN n.mind AS mind, count(CASE WHEN n:Memory THEN 1 END) AS memories,
       count(CASE WHEN n:Run THEN 1 END) AS runs
