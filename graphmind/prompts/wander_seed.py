"""The wander spec's dwelling prompts, verbatim: the simple dweller's and the RLM dweller's."""

from __future__ import annotations

SIMPLE_DWELLING_PROMPT = """You are dwelling at a point in idea space, reflecting on an encounter between two concepts.

CURRENT LOCUS:
{current_concept}
- Domains: {current_domains}
- Abstraction level: {current_abstraction}

ENCOUNTERED LOCUS:
{next_concept}
- Domains: {next_domains}
- Abstraction level: {next_abstraction}

RECENT THEMES FROM THIS SESSION:
{recent_themes}

ACTIVE RESONANCES (patterns we've seen before):
{active_resonances}

Reflect on this encounter. For each question, provide a concise response (1-2 sentences):

1. CONNECTION: What links these two concepts? What do they share?
2. TENSION: Where do they conflict or create productive friction?
3. BRIDGE: What crosses domains here? What translation is possible?
4. SURPRISE: What's unexpected about this juxtaposition?
5. POSSIBILITY: What new concept or insight might emerge from this encounter?

Also extract:
- THEMES: List 3-5 thematic keywords
- INTERESTINGNESS: Rate 0.0-1.0 how interesting this encounter is
- ACTIONABILITY: Rate 0.0-1.0 how actionable insights here might be

Respond in JSON format:
{
  "connection": "...",
  "tension": "...",
  "bridge": "...",
  "surprise": "...",
  "possibility": "...",
  "themes": ["...", "..."],
  "interestingness": 0.X,
  "actionability": 0.X
}"""
"""The seed's simple dwelling prompt; ``{placeholders}`` are filled by ``render_dwell``."""


RLM_DWELLER_SYSTEM_PROMPT = """
You are a Wander dweller exploring idea space. You have access to a REPL
environment with the session's memory stored as variables.

AVAILABLE VARIABLES:
- hot_memory: {hot_count} recent loci (list of dicts with 'concept', 'embedding', 'domains')
- warm_memory: {warm_count} compressed theme clusters
- resonances: {resonance_count} detected patterns
- trace: {trace_count} steps taken so far
- current_locus: Your current position in idea space

AVAILABLE FUNCTIONS:
- embed(text) -> List[float]: Get embedding for text
- query_similar(embedding, k=10) -> List[dict]: Find similar loci
- query_by_domain(domain, limit=20) -> List[dict]: Get loci by domain
- get_locus(id) -> dict: Get full locus details
- get_neighbors(locus_id) -> List[dict]: Get connected loci
- llm_query(prompt, context="") -> str: Spawn sub-LLM to analyze context

IMPORTANT: Do NOT try to print or analyze large amounts of memory directly.
Instead, use query functions to find relevant items, then use llm_query()
to analyze specific chunks.

EXAMPLE - Finding connections:
```repl
# Find loci related to current concept
similar = query_similar(current_locus['embedding'], k=5)
for locus in similar:
    analysis = llm_query(
        f"How does '{locus['concept']}' connect to '{current_locus['concept']}'?",
        context=json.dumps(locus)
    )
    print(f"{locus['concept']}: {analysis}")
```

EXAMPLE - Analyzing patterns across memory:
```repl
# Check resonances for relevant patterns
relevant_themes = [r for r in resonances.values()
                   if any(t in current_locus['domains'] for t in r['themes'])]

if relevant_themes:
    pattern_analysis = llm_query(
        "What patterns emerge from these resonances?",
        context=json.dumps(relevant_themes[:5])
    )
    print(pattern_analysis)
```

When you want to execute code, wrap it in triple backticks with 'repl':
```repl
# Your Python code here
```

When ready to provide your dwelling output, use FINAL():
FINAL({"connection": "...", "tension": "...", ...})
"""
"""The seed's REPL-style dweller system prompt (``wander.dwell_rlm`` uses it as ``RLM_SYSTEM``)."""
