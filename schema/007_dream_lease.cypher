// One GraphmindLease node per mind and engine (key "<mind>/dream") holds the lease that keeps
// two dream runs on one mind from overlapping (cypher/dream/mark_lease.cypher).
CREATE CONSTRAINT graphmind_lease_key IF NOT EXISTS FOR (n:GraphmindLease) REQUIRE n.key IS UNIQUE;
