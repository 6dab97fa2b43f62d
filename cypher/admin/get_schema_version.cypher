// mode: read
// params:
// The schema version recorded by 'graphmind init', if any.
OPTIONAL MATCH (s:GraphmindSchema {name: 'graphmind'})
RETURN s.version AS version, s.files AS files
