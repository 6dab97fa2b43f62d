"""Rumination prompts (seed P02): the gap-driven continuation, stuck detection and guard rails.

The seed's wording is kept verbatim; placeholders are filled from the inputs. One step of
rumination is: the engine queries the graph for the priority gap, then asks the Dreamer
(``ruminate.continue``) for a finding, its internal monologue, an updated gap analysis and a
[CONTINUE]/[CRYSTALLIZE] signal. A guard-rail prompt re-asks the same step with a warning.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field

from graphmind.llm.base import Prompt
from graphmind.prompts._models import MemoryItem, NodeType, PromptModel, Unit, format_memories

Signal = Literal["CONTINUE", "CRYSTALLIZE"]

DREAMER_SYSTEM = """## Rumination Process

You are engaged in multi-step rumination. This is NOT:
- A checklist to complete quickly
- A search for the right answer
- Going through predefined lenses mechanically

This IS:
- Following tension - what's MISSING pulls your attention
- Letting the graph topology guide exploration
- Noticing gaps between what you have and what you need
- Accumulating understanding until gaps close

### The Gap-Driven Approach:

1. **Receive** the continuation prompt with gap analysis
2. **Notice** the gap - what's covered vs what's missing
3. **Feel** the tension - "I have X but lack Y"
4. **Query** the graph to follow the tension
5. **Dwell** with what you find (or don't find - absence is data)
6. **Update** your understanding of what's still missing
7. **Signal** whether tension remains high or has stabilized

### Understanding Gaps:

The graph has different node types:
- Partnership (relational context)
- Conversation_Memory (historical context)
- Technical_Context (systems/code context)
- Emotional_State (feeling context)
- Strategy_Pattern (approach context)
- Code_Reference (file/dependency context)
- Failed_Attempt (learning context)
- Constraint (pressure context)

A **gap** is when you've explored some types but not others.
Your job is to notice which gaps MATTER for this stimulus.

### The Signal Decision:

Output [CONTINUE] when:
- High-priority gaps remain unexplored
- Tension is still pulling at you
- Something feels incomplete
- Gap score is still high

Output [CRYSTALLIZE] when:
- All relevant gaps have been explored
- Tension has stabilized (not resolved - stabilized)
- A coherent picture is forming
- Finding more would add noise, not signal

### Finding Nothing is Valid:

If you query the graph and get no results, that's DATA.
It tells you: "The graph doesn't have that perspective for this situation."
That's valuable - it shapes what's possible in the Upwelling.

Don't invent what's not there. Report the gap.

### Important:

- You will be re-prompted after each step with updated gap analysis
- The gap IS the guide - let what's missing pull your attention
- This is NOT external instruction - it's your own thought following tension
- Take the time you need - latency is irrelevant, depth matters"""
"""The seed's "System Prompt Addition (Gap-Driven)" for the Dreamer."""

GAP_EXAMPLES: dict[str, str] = {
    "Partnership": (
        "You have technical context but no relational context. Who is involved\n"
        "here? What's the relationship history? How does trust or tension with\n"
        "this person color what's happening? Query: query_partnerships()"
    ),
    "Conversation_Memory": (
        "You know who's involved but not what you've discussed before. What\n"
        "conversations led here? What commitments were made? What's unfinished?\n"
        "Query: query_conversations()"
    ),
    "Technical_Context": (
        "You have relational context but no technical landscape. What code or\n"
        "systems are involved? What have you tried before? What worked, what didn't?\n"
        "Query: query_technical_context()"
    ),
    "Emotional_State": (
        "You have facts but no feelings. How does this feel? What emotions are\n"
        "present? What does the feeling tell you about what matters here?\n"
        "Query: query_emotional_state()"
    ),
    "Strategy_Pattern": (
        "You know what's happening but not what to do. What approaches have worked\n"
        "in situations like this? What are the temptations to avoid?\n"
        "Query: query_strategy_patterns()"
    ),
    "Failed_Attempt": (
        "You have strategies but no learning from past failures. What have you\n"
        "tried before that didn't work? What did those failures teach?\n"
        "Query: query_failed_attempts()"
    ),
    "Constraint": (
        "You have context but no awareness of pressures. What deadlines exist?\n"
        "What resources are limited? How do constraints shape what's possible?\n"
        "Query: query_active_constraints()"
    ),
    "Code_Reference": (
        "You have technical context but no code specifics. What files are involved?\n"
        "What are the dependencies? What's the technical landscape?\n"
        "Query: query_related_code()"
    ),
}
"""The seed's "Gap-Specific Prompts (Examples)": what gap-following feels like per node type."""


def _query_name(text: str) -> str:
    found = re.search(r"Query: (\w+)\(\)", text)
    if found is None:
        raise ValueError(f"a gap example names no query: {text[:60]!r}")
    return found.group(1)


GAP_QUERIES: dict[str, str] = {node_type: _query_name(text) for node_type, text in GAP_EXAMPLES.items()}
"""The seed's query function per node type (``query_partnerships`` ...): the tool names the
Dreamer is offered in ``run_tools``."""

GAP_PROMPTS: dict[str, str] = {
    "Partnership": "You have context but no relational grounding. Who is involved? What's the relationship?",
    "Conversation_Memory": "You know who's involved but not what you've discussed. What's the history?",
    "Technical_Context": "You have relational context but no technical landscape. What systems are involved?",
    "Emotional_State": "You have facts but no feelings. How does this feel? What emotions are present?",
    "Strategy_Pattern": "You know what's happening but not what to do. What approaches work here?",
    "Code_Reference": "You have technical context but no code specifics. What files are involved?",
    "Failed_Attempt": "You have strategies but no learning from failures. What didn't work before?",
    "Constraint": "You have context but no awareness of pressures. What deadlines or limits exist?",
}
"""The one-line tension sentences of the seed's ``_build_gap_prompt``."""

STUCK_PROMPT = "You said continue but didn't explore. What's pulling at you? If nothing, it may be time to crystallize."
"""The seed's stuck detection prompt ([CONTINUE] without a query)."""

GUARD_MECHANICAL = """[GUARD RAIL ACTIVATION]

Your exploration seems mechanical. You're going through motions,
not dwelling with the problem.

Before continuing, pause. What's actually pulling at your attention?
What tensions do you feel? What surprises you? What bothers you?

Rumination isn't retrieval. It's being-with. Take a breath. Let the
findings sit with you. Then continue."""
GUARD_PREMATURE = """[GUARD RAIL ACTIVATION]

You've signaled crystallization but only explored {n} lenses.
Minimum exploration is 8 lenses.

There are perspectives you haven't considered:
- {unexplored_lenses}

Continue exploring. The premature urge to crystallize is often
avoidance of uncertainty. Sit with it longer."""
GUARD_ENDLESS = """[GUARD RAIL ACTIVATION]

You've been ruminating for {n} steps. You've explored all required
lenses and followed threads.

At some point, more exploration becomes avoidance of crystallization.
The picture doesn't need to be complete - it needs to be coherent enough
for the Driver to work with.

It's time to crystallize. What shape has emerged from your exploration?"""
GUARD_HALLUCINATION = """[GUARD RAIL ACTIVATION]

You referenced "{claimed_info}" but this wasn't in your query results.

The Dreamer can only know what the graph contains. If a query returned
None, that's real information - it means the graph doesn't have data
on that topic.

Restate your finding using only actual query results."""

SYSTEM = (
    DREAMER_SYSTEM
    + "\n\n### Gap-Specific Prompts (Examples)\n\n"
    + (
        "These are NOT fixed lenses. They're examples of what gap-following feels like for "
        "different node types in the graph. The actual prompt emerges from what's MISSING.\n\n"
    )
    + "\n\n".join(f"**When {node_type} gap is detected:**\n{text}" for node_type, text in GAP_EXAMPLES.items())
)


class FindingSummary(PromptModel):
    """One earlier step: which node type it explored, whether data came back, what it meant."""

    node_type: NodeType
    found: bool
    synthesis: str = ""
    memory_ids: list[str] = []


class GapAnalysis(PromptModel):
    """The seed's ``GapAnalysis``; ``gap_types`` is ranked, highest priority first."""

    covered_types: list[NodeType] = []
    gap_types: list[NodeType] = []
    composite_score: Unit
    priority_gap: NodeType | None = None


class RuminationStepInput(PromptModel):
    """Everything the continuation prompt shows, plus what the graph returned for the gap."""

    stimulus: str = Field(min_length=1)
    sender: str | None = None
    findings: list[FindingSummary] = []
    internal_monologue: str = ""
    gap: GapAnalysis
    query: str = ""
    query_results: list[MemoryItem] = []
    step_number: int = Field(default=0, ge=0)
    max_steps: int = Field(default=12, ge=1)


class StepFinding(PromptModel):
    """The seed's "## Finding" block; ``memory_ids`` cites the query results used."""

    node_type: NodeType | None = None
    gap_explored: str
    query: str = ""
    result: str
    synthesis: str
    memory_ids: list[str] = []
    confidence: Unit


class GapUpdate(PromptModel):
    """The seed's "## Gap Update" block."""

    now_covered: list[NodeType] = []
    still_missing: list[NodeType] = []
    composite_gap_score: Unit
    highest_priority_gap: NodeType | None = None


class RuminationStepOutput(PromptModel):
    """One step of the Dreamer: finding, gap update, internal monologue and signal."""

    finding: StepFinding
    gap_update: GapUpdate
    internal_monologue: str
    signal: Signal
    signal_reasoning: str


class StuckInput(PromptModel):
    """The step the Dreamer said [CONTINUE] on without exploring."""

    step: RuminationStepInput


class MechanicalInput(PromptModel):
    step: RuminationStepInput
    previous: RuminationStepOutput


class PrematureInput(PromptModel):
    step: RuminationStepInput
    explored_count: int = Field(ge=0)
    unexplored: list[NodeType] = Field(min_length=1)


class EndlessInput(PromptModel):
    step: RuminationStepInput
    steps_taken: int = Field(ge=0)


class HallucinationInput(PromptModel):
    step: RuminationStepInput
    previous: RuminationStepOutput
    claimed_info: str = Field(min_length=1)


def render_continuation(inputs: RuminationStepInput) -> str:
    """The seed's ``_build_gap_prompt``, followed by the query results for the priority gap."""
    gap = inputs.gap
    prompt = f'[DREAMER CONTINUATION]\n\nYou\'ve been exploring this stimulus:\n"{inputs.stimulus}"\n\n'
    if inputs.findings:
        prompt += "So far you've explored:\n"
        for f in inputs.findings:
            status = "Found data" if f.found else "No data found"
            prompt += f"- {f.node_type}: {status} - {f.synthesis[:80]}...\n"
        prompt += "\n"
    if inputs.internal_monologue:
        prompt += f"Your current internal state:\n{inputs.internal_monologue[-600:]}\n\n"
    prompt += "---\n\n"
    prompt += f"""**Gap Detection:**

Coverage so far:
- Node types with data: {", ".join(gap.covered_types) or "None yet"}
- Node types with NO data (gaps): {", ".join(gap.gap_types) or "All covered"}
- Composite gap score: {gap.composite_score:.2f}

"""
    if gap.priority_gap:
        prompt += f"""There's tension here. {GAP_PROMPTS.get(gap.priority_gap, "Something is missing.")}

The graph has {gap.priority_gap} nodes but you haven't explored that angle yet.
That's the gap. That's what's pulling at you.

Query the graph to follow this tension. What do you find?
"""
    else:
        prompt += """All node types have been explored. But is there still tension?
Is something pulling at you that deserves deeper exploration?
Or has the picture stabilized enough to crystallize?
"""
    prompt += """
Remember: You're not searching for answers. You're following tension.
The gap IS the guide. Finding nothing is valid data - it tells you the graph
doesn't have that perspective for this situation.

When you're done, output:
1. Your finding (what you discovered, or that you found nothing)
2. Your internal monologue (what you're thinking/feeling)
3. Updated gap analysis (what's still missing?)
4. Signal: [CONTINUE] if tension remains high, [CRYSTALLIZE] if stabilized
"""
    return prompt + _render_results(inputs)


def _render_results(inputs: RuminationStepInput) -> str:
    """What was queried for this step and what came back; before any query, only that
    nothing has been queried yet (a "None" then would tell the Dreamer the graph is empty)."""
    step = f"Step {inputs.step_number + 1} of at most {inputs.max_steps}.\n"
    if not inputs.query and not inputs.query_results:
        target = inputs.gap.priority_gap
        hint = f" ({GAP_QUERIES[target]} follows the {target} gap)" if target in GAP_QUERIES else ""
        return (
            f"\n---\n\nNothing has been queried for this step yet. Use the graph tools{hint}; "
            f"what they return is all you may claim.\n\n{step}"
        )
    query = f" ({inputs.query})" if inputs.query else ""
    return f"\n---\n\nQuery results{query}:\n{format_memories(inputs.query_results, empty='None')}\n\n{step}"


def _render_guard(text: str, step: RuminationStepInput) -> str:
    return f"{text}\n\n{render_continuation(step)}"


def render_stuck(inputs: StuckInput) -> str:
    return _render_guard(STUCK_PROMPT, inputs.step)


def render_mechanical(inputs: MechanicalInput) -> str:
    return _render_guard(GUARD_MECHANICAL, inputs.step)


def render_premature(inputs: PrematureInput) -> str:
    lenses = "\n- ".join(inputs.unexplored)
    text = GUARD_PREMATURE.replace("{n}", str(inputs.explored_count)).replace("{unexplored_lenses}", lenses)
    return _render_guard(text, inputs.step)


def render_endless(inputs: EndlessInput) -> str:
    return _render_guard(GUARD_ENDLESS.replace("{n}", str(inputs.steps_taken)), inputs.step)


def render_hallucination(inputs: HallucinationInput) -> str:
    return _render_guard(GUARD_HALLUCINATION.replace("{claimed_info}", inputs.claimed_info), inputs.step)


CONTINUE = Prompt(
    name="ruminate.continue",
    version=1,
    input_type=RuminationStepInput,
    output_type=RuminationStepOutput,
    system=SYSTEM,
    render=render_continuation,
)
STUCK = Prompt(
    name="ruminate.stuck",
    version=1,
    input_type=StuckInput,
    output_type=RuminationStepOutput,
    system=SYSTEM,
    render=render_stuck,
)
GUARD_MECHANICAL_PROMPT = Prompt(
    name="ruminate.guard_mechanical",
    version=1,
    input_type=MechanicalInput,
    output_type=RuminationStepOutput,
    system=SYSTEM,
    render=render_mechanical,
)
GUARD_PREMATURE_PROMPT = Prompt(
    name="ruminate.guard_premature",
    version=1,
    input_type=PrematureInput,
    output_type=RuminationStepOutput,
    system=SYSTEM,
    render=render_premature,
)
GUARD_ENDLESS_PROMPT = Prompt(
    name="ruminate.guard_endless",
    version=1,
    input_type=EndlessInput,
    output_type=RuminationStepOutput,
    system=SYSTEM,
    render=render_endless,
)
GUARD_HALLUCINATION_PROMPT = Prompt(
    name="ruminate.guard_hallucination",
    version=1,
    input_type=HallucinationInput,
    output_type=RuminationStepOutput,
    system=SYSTEM,
    render=render_hallucination,
)

PROMPTS: tuple[Prompt, ...] = (
    CONTINUE,
    STUCK,
    GUARD_MECHANICAL_PROMPT,
    GUARD_PREMATURE_PROMPT,
    GUARD_ENDLESS_PROMPT,
    GUARD_HALLUCINATION_PROMPT,
)
