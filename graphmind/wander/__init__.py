"""Wander (wander-technical-spec): exploration sessions through idea space.

``_logic`` (the rules, pure), ``sessions`` (sessions on the graph), ``space`` (idea space: the
mind's memory as loci, adjacency reads), ``walker`` (one step), ``wanderer`` (the session
handle: runs, stops, intervention), ``budget``, ``resonances``, ``crystals``, ``tiers`` (hot →
warm memory), ``events`` (the bus, the JSONL log, NATS), ``repl`` + ``_sandbox`` (the sandbox
for model-written code) and ``rlm`` (the REPL dweller), ``map`` (the session map).
"""
