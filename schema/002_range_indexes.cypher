// Range indexes on the tenant key, and on the keys engine queries filter or sort on.
// An index costs every write of its label: add one together with the query that needs it.
CREATE INDEX memory_mind IF NOT EXISTS FOR (n:Memory) ON (n.mind);
CREATE INDEX run_mind IF NOT EXISTS FOR (n:Run) ON (n.mind);
CREATE INDEX pattern_status IF NOT EXISTS FOR (n:Pattern) ON (n.mind, n.verification_status);
CREATE INDEX abstraction_level IF NOT EXISTS FOR (n:Abstraction) ON (n.mind, n.level);
CREATE INDEX topic_entry_topic IF NOT EXISTS FOR (n:TopicEntry) ON (n.mind, n.topic);
CREATE INDEX thread_status IF NOT EXISTS FOR (n:Thread) ON (n.mind, n.status);
CREATE INDEX locus_concept IF NOT EXISTS FOR (n:Locus) ON (n.mind, n.concept);
