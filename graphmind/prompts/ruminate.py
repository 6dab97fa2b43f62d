"""Rumination prompts (seed P02): the gap-driven continuation, stuck detection and guard rails.

The seed's wording is kept verbatim; placeholders are filled from the inputs. One step of
rumination is: the engine queries the graph for the priority gap, then asks the Dreamer
(``ruminate.continue``) for a finding, its internal monologue, an updated gap analysis and a
[CONTINUE]/[CRYSTALLIZE] signal. A guard-rail prompt re-asks the same step with a warning.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from graphmind.llm.base import Prompt
from graphmind.prompts._models import MemoryItem, NodeType, PromptModel, Unit, format_memories
from graphmind.prompts.ruminate_seed import DREAMER_SYSTEM as DREAMER_SYSTEM
from graphmind.prompts.ruminate_seed import GAP_EXAMPLES as GAP_EXAMPLES
from graphmind.prompts.ruminate_seed import GAP_PROMPTS as GAP_PROMPTS
from graphmind.prompts.ruminate_seed import GAP_QUERIES as GAP_QUERIES
from graphmind.prompts.ruminate_seed import GUARD_ENDLESS as GUARD_ENDLESS
from graphmind.prompts.ruminate_seed import GUARD_HALLUCINATION as GUARD_HALLUCINATION
from graphmind.prompts.ruminate_seed import GUARD_MECHANICAL as GUARD_MECHANICAL
from graphmind.prompts.ruminate_seed import GUARD_PREMATURE as GUARD_PREMATURE
from graphmind.prompts.ruminate_seed import STUCK_PROMPT as STUCK_PROMPT
from graphmind.prompts.ruminate_seed import _query_name as _query_name

Signal = Literal["CONTINUE", "CRYSTALLIZE"]


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
    signals: dict[str, float | str] | None = None
    """The V2 gap signals (semantic, quality, structural, composite, semantic_level),
    recomputed over what rumination has energised so far; shown when given."""


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
    if gap.signals:
        v = gap.signals
        prompt += (
            f"- How well the graph fits the stimulus (V2 gaps, 0 = fits, 1 = missing): semantic {v['semantic']}"
            f" ({v['semantic_level']}), quality {v['quality']}, structural {v['structural']},"
            f" composite {v['composite']}\n"
        )
    prompt += """
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
