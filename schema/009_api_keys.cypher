// One GraphmindKey node per REST API key: the SHA-256 of the key (never the key), its mind and
// scope. Looking a key up by its hash is the only read on the request path. One GraphmindJob
// node per background job of the REST API (a dream), by id.
CREATE CONSTRAINT graphmind_key_hash IF NOT EXISTS FOR (k:GraphmindKey) REQUIRE k.hash IS UNIQUE;
CREATE INDEX graphmind_key_mind IF NOT EXISTS FOR (k:GraphmindKey) ON (k.mind);
CREATE CONSTRAINT graphmind_job_id IF NOT EXISTS FOR (j:GraphmindJob) REQUIRE j.id IS UNIQUE;
CREATE INDEX graphmind_job_mind IF NOT EXISTS FOR (j:GraphmindJob) ON (j.mind);
