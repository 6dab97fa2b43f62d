"""Offline rumination: one gap-driven step, built from the query results and the gap analysis.

Rules (seed P02): the finding cites the query results ranked by overlap with the stimulus;
coverage gains the explored type when data came back; the composite gap score is the
share of the eight node types still without data. [CONTINUE] while one of the gap types
the engine ranked is still unexplored and the step budget allows; [CRYSTALLIZE] otherwise,
or when the step found nothing new (known memories again, or a second empty result in a
row), or when the V2 composite gap the engine recomputed is low (under ``LOW_COMPOSITE_GAP``:
the seed's "low composite gap = I have enough context here"); the signal's reasoning gives
the V2 reading either way. The gap threshold is the engine's to apply (the seed's
orchestrator does). Guard rails adjust the signal as their seed text asks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphmind.llm.base import Tool
from graphmind.prompts._models import NODE_TYPES, MemoryItem
from graphmind.prompts.ruminate import (
    GAP_QUERIES,
    EndlessInput,
    GapUpdate,
    HallucinationInput,
    MechanicalInput,
    PrematureInput,
    RuminationStepInput,
    RuminationStepOutput,
    Signal,
    StepFinding,
    StuckInput,
)
from graphmind.prompts.tool_results import call_with_text
from graphmind.text import (
    as_sentence,
    best_sentences,
    content_terms,
    join_names,
    plural,
    rank_by_overlap,
    sentences,
    term_set,
    trim,
)

TEMPLATE_WORDS = frozenset(
    """
memories memory found data none nothing graph absence here perspective still missing
earlier steps step showed touches stimulus what pulls closed picture forming gaps score
pulling budget spent unexplored remain last gap only explored coherent
enough crystallize after restated query results types type with from this that echoes
continue
""".split()
)

LOW_COMPOSITE_GAP = 0.4
"""The seed's bound of a low semantic gap (< 0.4: "I have good structure for this"), applied to
the composite: the seed names no other number for it."""

_TENSION = re.compile(
    r"\b(?:but|however|not|failed|again|back|didn't|never|without|returning|"
    r"recurrence|unfinished|wasted|cannot)\b",
    re.I,
)


def continue_step(inputs: RuminationStepInput, tools: Sequence[Tool]) -> RuminationStepOutput:
    return _step(_queried(inputs, tools))


def stuck(inputs: StuckInput, tools: Sequence[Tool]) -> RuminationStepOutput:
    return _step(_queried(inputs.step, tools))


def mechanical(inputs: MechanicalInput, tools: Sequence[Tool]) -> RuminationStepOutput:
    return _step(_queried(inputs.step, tools), reflect=True)


def _queried(inputs: RuminationStepInput, tools: Sequence[Tool]) -> RuminationStepInput:
    """With no query results given, call the seed's query tool for the priority gap if offered."""
    target = inputs.gap.priority_gap
    name = GAP_QUERIES.get(target or "")
    tool = next((t for t in tools if t.name == name), None)
    if inputs.query_results or tool is None:
        return inputs
    results = call_with_text(tool, inputs.stimulus) or []
    return inputs.model_copy(update={"query_results": results, "query": f"{name}()"})


def premature(inputs: PrematureInput, tools: Sequence[Tool]) -> RuminationStepOutput:
    out = _step(inputs.step)
    explored = _explored(inputs.step)
    remaining = [t for t in inputs.unexplored if t not in explored]
    if not remaining or not _budget_left(inputs.step):
        return out
    reason = f"Only {inputs.explored_count} explored; {join_names(remaining)} remain."
    update = out.gap_update.model_copy(update={"highest_priority_gap": remaining[0]})
    return out.model_copy(update={"signal": "CONTINUE", "signal_reasoning": reason, "gap_update": update})


def endless(inputs: EndlessInput, tools: Sequence[Tool]) -> RuminationStepOutput:
    out = _step(inputs.step)
    reason = f"After {inputs.steps_taken} steps, the picture is coherent enough to crystallize."
    return out.model_copy(update={"signal": "CRYSTALLIZE", "signal_reasoning": reason})


def hallucination(inputs: HallucinationInput, tools: Sequence[Tool]) -> RuminationStepOutput:
    out = _step(inputs.step)
    monologue = f"Restated from query results only. {out.internal_monologue}"
    return out.model_copy(update={"internal_monologue": monologue})


def _step(inputs: RuminationStepInput, *, reflect: bool = False) -> RuminationStepOutput:
    target = inputs.gap.priority_gap
    focus = f"{inputs.stimulus} {inputs.sender or ''}"
    order = rank_by_overlap([m.text for m in inputs.query_results], focus)
    results = [inputs.query_results[i] for i in order]
    finding = _finding(inputs, target, results, focus)
    update = _gap_update(inputs, target, found=bool(results))
    signal, reason = _signal(inputs, update, results)
    monologue = _monologue(inputs, target, results, update, focus, reflect)
    return RuminationStepOutput(
        finding=finding, gap_update=update, internal_monologue=monologue, signal=signal, signal_reasoning=reason
    )


def _finding(inputs: RuminationStepInput, target: str | None, results: list[MemoryItem], focus: str) -> StepFinding:
    gap_name = target or "stimulus"
    if not results:
        return StepFinding(
            node_type=target,
            gap_explored=gap_name,
            query=inputs.query,
            result="None",
            synthesis=f"No {gap_name} data found in the graph.",
            confidence=0.0,
        )
    top = results[:3]
    parts = [f"{trim(_best(m, focus), 160)} [{m.id}]" for m in top]
    best_overlap = len(term_set(results[0].text) & term_set(focus))
    return StepFinding(
        node_type=target,
        gap_explored=gap_name,
        query=inputs.query,
        result=f"{plural(len(results), gap_name + ' memory', gap_name + ' memories')}: "
        f"{', '.join(m.id for m in results)}",
        synthesis=" ".join(parts),
        memory_ids=[m.id for m in top],
        confidence=round(0.5 + 0.5 * min(1.0, best_overlap / 3), 2),
    )


def _best(item: MemoryItem, focus: str) -> str:
    chosen = best_sentences([item.text], focus, k=1)
    return chosen[0] if chosen else item.text


def _gap_update(inputs: RuminationStepInput, target: str | None, *, found: bool) -> GapUpdate:
    covered = list(inputs.gap.covered_types)
    for node_type in NODE_TYPES:  # the target as a node type (one of the eight, or none)
        if found and node_type == target and node_type not in covered:
            covered.append(node_type)
    ranked = list(inputs.gap.gap_types) + [t for t in NODE_TYPES if t not in inputs.gap.gap_types]
    missing = [t for t in ranked if t not in covered]
    explored = _explored(inputs) | ({target} if target else set())
    upcoming = [t for t in missing if t not in explored and t in inputs.gap.gap_types]
    return GapUpdate(
        now_covered=covered,
        still_missing=missing,
        composite_gap_score=round(len(missing) / len(NODE_TYPES), 4),
        highest_priority_gap=upcoming[0] if upcoming else None,
    )


def _explored(inputs: RuminationStepInput) -> set[str]:
    return {f.node_type for f in inputs.findings}


def _budget_left(inputs: RuminationStepInput) -> bool:
    return inputs.step_number + 1 < inputs.max_steps


def _signal(inputs: RuminationStepInput, update: GapUpdate, results: list[MemoryItem]) -> tuple[Signal, str]:
    seen = {i for f in inputs.findings for i in f.memory_ids}
    last_empty = bool(inputs.findings) and not inputs.findings[-1].found
    nothing_new = (bool(results) and all(m.id in seen for m in results)) or (not results and last_empty)
    score = update.composite_gap_score
    closed = f"Gaps closed to {score:.2f}, picture is forming..."
    v2 = inputs.gap.signals or {}
    fit = v2.get("composite")
    reading = f" V2 gap {fit:.2f} (semantic {v2.get('semantic_level', '?')})." if isinstance(fit, float) else ""
    if isinstance(fit, float) and fit < LOW_COMPOSITE_GAP:
        return "CRYSTALLIZE", f"{closed} The graph fits this well:{reading}"
    closed += reading
    if update.highest_priority_gap is None:
        return "CRYSTALLIZE", f"{closed} No unexplored gaps remain."
    if not _budget_left(inputs):
        return "CRYSTALLIZE", f"{closed} The step budget is spent."
    if nothing_new:
        return "CRYSTALLIZE", f"{closed} The last step found nothing new."
    return "CONTINUE", f"Gap score {score:.2f}, {update.highest_priority_gap} still pulling at me...{reading}"


def _monologue(
    inputs: RuminationStepInput,
    target: str | None,
    results: list[MemoryItem],
    update: GapUpdate,
    focus: str,
    reflect: bool,
) -> str:
    """What was found, what it touches in the stimulus, what it echoes of earlier steps, what pulls."""
    gap_name = target or "stimulus"
    if not results:
        parts = [
            f"Nothing in the graph for {gap_name}. The absence is data: the graph has no {gap_name} perspective here."
        ]
    else:
        segments = [s for m in results for s in sentences(m.text, fine=True)]
        headline = segments[rank_by_overlap(segments, focus)[0]]
        parts = [as_sentence(f"{gap_name}: {trim(headline, 200)}")]
        found_terms = set().union(*(term_set(m.text) for m in results))
        shared = [t for t in dict.fromkeys(content_terms(focus)) if t in found_terms]
        if shared:
            parts.append(f"This touches {join_names(shared[:5])} from the stimulus.")
        parts += _echoes(inputs, found_terms - set(shared))
        pull = next((s for s in segments if s != headline and _TENSION.search(s)), None)
        if pull:
            parts.append(as_sentence(f"What pulls at me: {trim(pull, 200)}"))
    earlier = [f for f in inputs.findings if f.found]
    if earlier and reflect:
        parts += [as_sentence(f"Earlier, {f.node_type} showed: {trim(f.synthesis, 120)}") for f in earlier[-3:]]
    elif earlier and len(parts) < 3:
        parts.append(f"Earlier steps found {join_names(dict.fromkeys(f.node_type for f in earlier))}.")
    parts.append(f"Still missing: {join_names(update.still_missing)}.")
    return " ".join(parts)


def _echoes(inputs: RuminationStepInput, terms: set[str]) -> list[str]:
    """At most two earlier findings that share terms with this one (the accumulation)."""
    echoes = []
    for finding in reversed(inputs.findings):
        shared = [t for t in dict.fromkeys(content_terms(finding.synthesis)) if t in terms]
        if finding.found and shared:
            echoes.append(f"It echoes {finding.node_type}: {join_names(shared[:4])}.")
        if len(echoes) == 2:
            break
    return echoes


BEHAVIOURS = {
    "ruminate.continue": continue_step,
    "ruminate.stuck": stuck,
    "ruminate.guard_mechanical": mechanical,
    "ruminate.guard_premature": premature,
    "ruminate.guard_endless": endless,
    "ruminate.guard_hallucination": hallucination,
}
