// Wander's analogy strategy looks up the loci of one mind that stand for memories of the same
// type (role): a composite range index keeps that a seek as the mind grows.
CREATE INDEX locus_role IF NOT EXISTS FOR (n:Locus) ON (n.mind, n.role);
