// mode: write
// params: version, files
// Record which schema files have been applied (one node for the whole database).
MERGE (s:GraphmindSchema {name: 'graphmind'})
SET s.version = $version, s.files = $files, s.applied_at = datetime()
RETURN s.version AS version
