"""Digests (rumination-digest-proposal.zh): cross-pollination, thread convergence and
decay-aware review over a mind's topic memory. Issue 6 is in progress: the pure logic is in
``_logic``; the graph adapters, hit counting, CLI and actions are still to come."""
