// mode: read
// params:
// How many memories the database holds, every mind together (from Neo4j's count store: no scan).
MATCH (n:Memory)
RETURN count(n) AS memories
