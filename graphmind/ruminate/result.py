"""What a rumination returns and records: its steps and the Context Object."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from graphmind.context.model import ContextObject


@dataclass
class StepRecord:
    """One step: what was explored, what came back, the gaps after it, the signal, the guards."""

    number: int
    kind: str  # initial | depth | gap | thread | guard
    node_type: str | None
    query: str
    found_ids: list[str]
    new_ids: list[str]
    coverage_score: float
    signals: dict[str, Any]
    signal: str
    signal_reasoning: str = ""
    synthesis: str = ""
    monologue: str = ""
    guard_rails: list[str] = field(default_factory=list)
    hallucinated: list[str] = field(default_factory=list)
    graph_ms: float = 0.0
    llm_ms: float = 0.0
    queried: bool = True
    """Whether the Dreamer (or the engine for it) queried the graph in this step."""
    tools: list[str] = field(default_factory=list)
    """The graph tools called in this step (every ask of it), in call order."""
    relevant_new: list[str] = field(default_factory=list)
    """The memories relevance keeps since this step and not before it (returns.py)."""
    gaps_closed: list[str] = field(default_factory=list)
    """The node types this step covered through a relevant memory (returns.py)."""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def trace_line(self) -> str:
        """One line for the CLI's step trace."""
        target = self.node_type or self.kind
        guards = f"  guards: {', '.join(self.guard_rails)}" if self.guard_rails else ""
        return (
            f"{self.number:>2}. {self.kind:<7} {target:<20} found {len(self.found_ids):>2} "
            f"(new {len(self.new_ids):>2})  gap {self.coverage_score:.2f}  [{self.signal}]{guards}"
        )


@dataclass
class RuminationResult:
    """``Mind.ruminate``'s answer: the Context Object, the steps, the coverage, the gaps."""

    run_id: str
    mind: str
    stimulus: str
    sender: str | None
    context: ContextObject
    steps: list[StepRecord]
    coverage: dict[str, Any]
    final_gap_score: float
    signals: dict[str, Any]
    stopped_reason: str
    guard_rails: dict[str, int]
    llm: dict[str, Any]
    timings_ms: dict[str, float]
    truncated: bool = False

    @property
    def context_markdown(self) -> str:
        return self.context.to_markdown()

    def as_dict(self) -> dict[str, Any]:
        """The JSON of ``graphmind ruminate --json`` (DESIGN.md's fields first)."""
        return {
            "context_markdown": self.context_markdown,
            "sections": [s.model_dump(mode="json") for s in self.context.sections],
            "token_count": self.context.token_count,
            "steps": [s.as_dict() for s in self.steps],
            "coverage": self.coverage,
            "final_gap_score": round(self.final_gap_score, 4),
            "validation": self.context.validation.model_dump(mode="json"),
            "run_id": self.run_id,
            "mind": self.mind,
            "stimulus": self.stimulus,
            "sender": self.sender,
            "truncated": self.truncated,
            "signals": self.signals,
            "stopped_reason": self.stopped_reason,
            "guard_rails": self.guard_rails,
            "llm": self.llm,
            "timings_ms": self.timings_ms,
        }
