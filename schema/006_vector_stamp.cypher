// One GraphmindVectors node per mind carries a stamp (a random token) that changes whenever
// the mind's stored embeddings change (embed/mark_embedded) and disappears with the mind
// (admin/delete_mind_stamp). Recall keeps a mind's vectors in memory and checks the stamp
// before each search, so a cached copy is never used once the graph moved on.
CREATE CONSTRAINT graphmind_vectors_mind IF NOT EXISTS FOR (n:GraphmindVectors) REQUIRE n.mind IS UNIQUE;
