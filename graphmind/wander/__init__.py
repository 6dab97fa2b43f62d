"""Wander (wander-technical-spec): exploration sessions through idea space. Issue 7 is in
progress: the rules are in ``_logic``; sessions on the graph, the step loop, dwelling,
crystals, memory tiers, events and the REPL are still to come."""
