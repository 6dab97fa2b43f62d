// Uniqueness of uid ("{mind}:{id}"). Every node graphmind writes carries :Memory (memory
// types) or :Run (DreamRun, WanderSession, RuminationRun) besides its typed label, so these
// two constraints make uid unique across every label. Per-label constraints would only repeat
// them and cost an extra unique-index write per node (measured in bench/import_bench.py).
// Idempotent: IF NOT EXISTS. Each statement ends with a semicolon.
CREATE CONSTRAINT memory_uid IF NOT EXISTS FOR (n:Memory) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT run_uid IF NOT EXISTS FOR (n:Run) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT graphmind_schema_name IF NOT EXISTS FOR (n:GraphmindSchema) REQUIRE n.name IS UNIQUE;
