// Wander's per-step reads stay index seeks as a mind's residues pile up: the hot loci of a mind
// (distance-band sampling, memory tiers), the loci standing for memories of one type (the
// analogy strategy), and the resonances of a mind.
CREATE INDEX locus_tier IF NOT EXISTS FOR (n:Locus) ON (n.mind, n.tier);
CREATE INDEX locus_role IF NOT EXISTS FOR (n:Locus) ON (n.mind, n.role);
CREATE INDEX resonance_mind IF NOT EXISTS FOR (n:Resonance) ON (n.mind);
