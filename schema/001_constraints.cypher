// Uniqueness of uid ("{mind}:{id}") on the shared labels and on every typed label.
// Idempotent: IF NOT EXISTS. Each statement ends with a semicolon.
CREATE CONSTRAINT memory_uid IF NOT EXISTS FOR (n:Memory) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT run_uid IF NOT EXISTS FOR (n:Run) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT graphmind_schema_name IF NOT EXISTS FOR (n:GraphmindSchema) REQUIRE n.name IS UNIQUE;
CREATE CONSTRAINT abstraction_uid IF NOT EXISTS FOR (n:Abstraction) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT code_reference_uid IF NOT EXISTS FOR (n:Code_Reference) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT constraint_uid IF NOT EXISTS FOR (n:Constraint) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT conversation_memory_uid IF NOT EXISTS FOR (n:Conversation_Memory) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT crystal_uid IF NOT EXISTS FOR (n:Crystal) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT dream_run_uid IF NOT EXISTS FOR (n:DreamRun) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT emotional_state_uid IF NOT EXISTS FOR (n:Emotional_State) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT experience_uid IF NOT EXISTS FOR (n:Experience) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT failed_attempt_uid IF NOT EXISTS FOR (n:Failed_Attempt) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT finding_uid IF NOT EXISTS FOR (n:Finding) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT identity_uid IF NOT EXISTS FOR (n:Identity) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT locus_uid IF NOT EXISTS FOR (n:Locus) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT partnership_uid IF NOT EXISTS FOR (n:Partnership) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT pattern_uid IF NOT EXISTS FOR (n:Pattern) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT residue_uid IF NOT EXISTS FOR (n:Residue) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT resonance_uid IF NOT EXISTS FOR (n:Resonance) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT rumination_run_uid IF NOT EXISTS FOR (n:RuminationRun) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT strategy_pattern_uid IF NOT EXISTS FOR (n:Strategy_Pattern) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT technical_context_uid IF NOT EXISTS FOR (n:Technical_Context) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT thread_uid IF NOT EXISTS FOR (n:Thread) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT topic_entry_uid IF NOT EXISTS FOR (n:TopicEntry) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT wander_session_uid IF NOT EXISTS FOR (n:WanderSession) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT warm_memory_uid IF NOT EXISTS FOR (n:WarmMemory) REQUIRE n.uid IS UNIQUE;
