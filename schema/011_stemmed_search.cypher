// Full-text search matches a word in any of its forms: memory_words (schema 003, the English
// analyzer) replaces memory_search, which matched words only as written ("extracting" missed
// "extraction"). Dropping an index keeps the data; memory_words is populated from the nodes.
DROP INDEX memory_search IF EXISTS;
