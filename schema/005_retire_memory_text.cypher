// The first full-text index (schema 003 before version 5) did not index `mind`; memory_search
// replaced it.
DROP INDEX memory_text IF EXISTS;
