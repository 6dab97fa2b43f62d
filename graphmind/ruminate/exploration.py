"""A rumination's settings and its exploration state, and the helpers that read the Dreamer's tool calls."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graphmind.prompts._models import NODE_TYPES, MemoryItem
from graphmind.prompts.ruminate import GAP_QUERIES, FindingSummary, RuminationStepInput, RuminationStepOutput
from graphmind.ruminate.coverage import Coverage, node_type_of
from graphmind.ruminate.gaps import GapSignals, GapWeights, coverage_score
from graphmind.ruminate.result import StepRecord
from graphmind.ruminate.tools import DreamerTools


@dataclass(frozen=True)
class RuminationParams:
    """The seed's knobs."""

    max_steps: int = 12
    """Steps at most, the first look and the depth read included (issue 21: <= 12 steps)."""
    gap_threshold: float = 0.3
    weights: GapWeights = GapWeights()
    patience: int | None = 1
    """Barren exploring steps in a row that end rumination (returns.py); None: never on that ground."""


@dataclass
class Exploration:
    """Everything a rumination accumulated: steps, findings, monologue, coverage state."""

    coverage: Coverage
    tools: DreamerTools
    steps: list[StepRecord] = field(default_factory=list)
    findings: list[FindingSummary] = field(default_factory=list)
    monologue: str = ""
    explored: set[str] = field(default_factory=set)
    found_types: set[str] = field(default_factory=set)
    followed: set[str] = field(default_factory=set)
    expanded: set[str] = field(default_factory=set)
    """The memories whose neighbours a depth step has read (depth.py)."""
    topical: set[str] = field(default_factory=set)
    """The memories the first look found on topic (depth.py)."""
    signals: GapSignals | None = None
    """The V2 signals as last recomputed (depth.recompute); the coverage map's before."""
    relevant: set[str] = field(default_factory=set)
    """The returned memories relevance keeps, as of the last step (returns.py)."""
    anchors: set[str] = field(default_factory=set)
    """The returned memories on topic or linked to one: where threads start (returns.py)."""
    settled_types: set[str] = field(default_factory=set)
    """``found_types`` as of the last step's yield (returns.py)."""
    yields: list[Any] = field(default_factory=list)
    """Each exploring step's yield (returns.StepYield), in order."""
    link_cache: tuple[frozenset[str], list[Any]] | None = None
    """The edges between the returned memories, and the ids they were read for (returns.links_of)."""
    guard_counts: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(
            ("mechanical", "premature", "stuck", "endless", "hallucination", "llm_output"), 0
        )
    )
    stopped_reason: str = ""

    @property
    def current_signals(self) -> GapSignals:
        return self.signals or self.coverage.signals

    @property
    def score(self) -> float:
        return coverage_score(self.found_types)


_TYPE_OF_TOOL = {name: node_type for node_type, name in GAP_QUERIES.items()}


def explored_types(priority: str | None, tools_called: list[str], found_types: set[str]) -> list[str]:
    """The node types one step explored, the priority gap first when it is one of them: each
    type whose query tool was called, and the priority gap when another call (follow_edges)
    brought back memories of its type. A gap is not explored because a step was taken for it."""
    queried = [_TYPE_OF_TOOL[name] for name in tools_called if name in _TYPE_OF_TOOL]
    if priority in found_types:
        queried.append(priority)
    explored = list(dict.fromkeys(queried))
    return sorted(explored, key=lambda t: t != priority)


def _ids(output: Any) -> list[str]:
    rows = output if isinstance(output, list) else []
    return [str(r["id"]) for r in rows if isinstance(r, dict) and "id" in r]


def _gist(item: MemoryItem) -> str:
    return f"{item.text[:100]} [{item.id}]"


def _as_type(label: str) -> str:
    return node_type_of(label)


def record_step(
    state: Exploration,
    output: RuminationStepOutput,
    inputs: RuminationStepInput,
    explored: list[str],
    thread: tuple[str, list[str]] | None,
    new_ids: list[str],
    fired: list[str],
    claims: list[str],
    graph_ms: float,
    llm_ms: float,
) -> None:
    state.explored.update(explored)
    target = explored[0] if explored else None
    if thread is not None:
        state.followed.add(thread[0])
    absorb_found(state, [i for i in new_ids if i in state.relevant])  # a gap closes only on relevant content
    returned = state.tools.returned
    cited = [i for i in output.finding.memory_ids if i in returned] or new_ids[:5]
    synthesis = (
        output.finding.synthesis
        if not claims
        else (f"{target or 'thread'}: {', '.join(cited) or 'nothing found'} (restated from query results).")
    )
    node_type = target or (_as_type(returned[cited[0]].label) if cited else None)
    if node_type in NODE_TYPES:
        state.findings.append(
            FindingSummary(node_type=node_type, found=bool(cited), synthesis=synthesis, memory_ids=cited)
        )
    state.monologue = (state.monologue + "\n\n" + output.internal_monologue).strip()
    state.steps.append(
        StepRecord(
            number=len(state.steps),
            kind="thread" if thread is not None else "gap",
            node_type=target,
            query=inputs.query or output.finding.query or (GAP_QUERIES.get(target or "", "") + "()"),
            found_ids=cited,
            new_ids=new_ids,
            coverage_score=round(state.score, 4),
            signals=state.current_signals.as_dict(),
            signal=output.signal,
            signal_reasoning=output.signal_reasoning,
            synthesis=synthesis,
            monologue=output.internal_monologue,
            guard_rails=fired,
            hallucinated=claims,
            graph_ms=round(graph_ms, 2),
            llm_ms=round(max(llm_ms, 0.0), 2),
        )
    )


def absorb_found(state: Exploration, ids: list[str]) -> None:
    returned = state.tools.returned
    state.found_types |= {_as_type(returned[i].label) for i in ids if i in returned}
