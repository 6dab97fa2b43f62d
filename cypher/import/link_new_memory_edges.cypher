// mode: write
// params: rows
// Create relationships between two memories (:Memory endpoints) that this import created, each
// the first of its (from, type, to) in the file, so it cannot exist yet: the common case of a
// fresh import, without link_edges' per-row endpoint dispatch and existence check (about 30%
// faster). row: {from_uid, to_uid, rel, props, dates}; the type is a checked parameter (dynamic
// type); dates holds ISO-8601 text.
UNWIND $rows AS row
MATCH (a:Memory {uid: row.from_uid})
MATCH (b:Memory {uid: row.to_uid})
CREATE (a)-[created:$(row.rel)]->(b)
SET created = row.props
FOREACH (key IN keys(row.dates) | SET created[key] = datetime(row.dates[key]))
RETURN count(*) AS linked
