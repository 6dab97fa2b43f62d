"""Verification (FR-2.1.6): five checks over the active patterns and the ladder.

- vertical consistency (error): every abstraction's members are one level down, each shares
  a content term with it (graphmind.dream.rules.uncovered), and every node below the top has
  a parent;
- horizontal coherence (warning): nodes of one level are of a like degree: no level mixes
  nodes whose pattern spans differ more than ``SPAN_RATIO`` times, and no abstraction merely
  rewords its single member (the same name one level up);
- groundedness (error): every pattern stands on experiences, every abstraction reaches
  patterns (L3 → L2 → L1 → L0);
- non-contradiction (warning, the seed's "flag in verification, present both"): no two
  patterns have the same conditions with conflicting actions;
- utility threshold (warning): every active pattern's utility ≥ ``min_utility``, except the
  patterns that record a failure (kept on purpose: a negative result is low in utility).
Each check scores 1 − the share of items it faults; the score is their mean. Status:
``failed`` when an error check fails, else ``verified`` when all pass and the score reaches
``min_verification_score``, else ``warnings``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from graphmind.dream import rules
from graphmind.dream.integrate import item
from graphmind.dream.items import LadderNode, PatternState
from graphmind.dream.ladder import node_item
from graphmind.dream.params import DreamParams

SPAN_RATIO = 10


@dataclass(frozen=True)
class CheckResult:
    passed: bool
    message: str
    severity: str = "error"
    score: float = 1.0
    details: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Verification:
    status: str
    score: float
    checks: dict[str, CheckResult]
    contradictions: list[tuple[str, str]] = field(default_factory=list)

    @property
    def warnings(self) -> list[str]:
        return [c.message for c in self.checks.values() if not c.passed and c.severity == "warning"]

    @property
    def errors(self) -> list[str]:
        return [c.message for c in self.checks.values() if not c.passed and c.severity == "error"]

    def as_dict(self) -> dict[str, Any]:
        return {"status": self.status, "score": self.score,
                "checks": {k: asdict(c) for k, c in self.checks.items()},
                "warnings": self.warnings, "errors": self.errors}


def _result(faults: list[str], total: int, ok: str, failed: str, severity: str) -> CheckResult:
    score = round(1 - min(len(faults), total) / total, 4) if total else 1.0
    return CheckResult(not faults, failed.format(n=len(faults)) if faults else ok, severity, score, faults)


def vertical(patterns: list[PatternState], nodes: list[LadderNode]) -> CheckResult:
    items = {p.id: item(p) for p in patterns}
    level_of = {p.id: 1 for p in patterns} | {n.id: n.level for n in nodes}
    items |= {n.id: node_item(n) for n in nodes}
    faults, parents = [], {m for n in nodes for m in n.members}
    for n in nodes:
        wrong = [m for m in n.members if level_of.get(m) != n.level - 1]
        lower = [items[m] for m in n.members if m in items]
        if wrong or not lower or rules.uncovered(node_item(n), lower):
            faults.append(f'Level {n.level} pattern "{n.name}" doesn\'t subsume Level {n.level - 1}')
    top = max(level_of.values(), default=1)
    faults += [f"{i} (level {lvl}) has no parent at level {lvl + 1}" for i, lvl in level_of.items()
               if lvl < top and nodes and i not in parents]
    return _result(faults, len(nodes) + len(patterns), "Vertical consistency verified",
                   "{n} vertical inconsistencies", "error")


def horizontal(patterns: list[PatternState], nodes: list[LadderNode]) -> CheckResult:
    span = {p.id: 1 for p in patterns}
    names = {p.id: p.name.lower() for p in patterns} | {n.id: n.name.lower() for n in nodes}
    faults = []
    for level in sorted({n.level for n in nodes}):
        at = [n for n in nodes if n.level == level]
        for n in at:
            span[n.id] = sum(span.get(m, 0) for m in n.members)
            if len(n.members) == 1 and names.get(n.members[0]) == n.name.lower():
                faults.append(f'Level {level} "{n.name}" only rewords {n.members[0]}')
        spans = [span[n.id] for n in at]
        if min(spans) and max(spans) > SPAN_RATIO * min(spans):
            faults.append(f"Level {level} mixes spans of {min(spans)} and {max(spans)} patterns")
    return _result(faults, len(nodes), "Horizontal coherence verified",
                   "{n} horizontal incoherences", "warning")


def grounded(patterns: list[PatternState], nodes: list[LadderNode]) -> CheckResult:
    reaches = {p.id: p.usage_count > 0 for p in patterns}
    for n in sorted(nodes, key=lambda n: n.level):
        reaches[n.id] = any(reaches.get(m, False) for m in n.members)
    faults = [f"{i} does not trace down to experiences" for i, ok in reaches.items() if not ok]
    return _result(faults, len(reaches), "Every abstraction traces down to experiences",
                   "{n} ungrounded items", "error")


def contradictions(patterns: list[PatternState]) -> list[tuple[str, str]]:
    items = [item(p) for p in sorted(patterns, key=lambda p: p.id)]
    return [(a.id, b.id) for i, a in enumerate(items) for b in items[i + 1:]
            if rules.contradiction(a, b) is not None]


def verify(patterns: list[PatternState], nodes: list[LadderNode], params: DreamParams) -> Verification:
    """The five checks over the active ``patterns`` and the ``nodes`` of the ladder."""
    active = [p for p in patterns if p.active]
    pairs = contradictions(active)
    checks = {
        "vertical_consistency": vertical(active, nodes),
        "horizontal_coherence": horizontal(active, nodes),
        "groundedness": grounded(active, nodes),
        "non_contradiction": _result([f"Patterns {a} and {b} contradict" for a, b in pairs], len(active),
                                     "No contradictions found", "Found {n} contradictions", "warning"),
        "utility_threshold": _result([f"{p.id} utility {p.utility:.2f}" for p in active
                                      if p.utility < params.min_utility
                                      and not p.tally.records_failure(params.failure_share)], len(active),
                                     "All patterns meet the utility threshold",
                                     "{n} patterns below the utility threshold", "warning"),
    }
    score = round(sum(c.score for c in checks.values()) / len(checks), 4)
    if any(not c.passed and c.severity == "error" for c in checks.values()):
        status = "failed"
    elif all(c.passed for c in checks.values()) and score >= params.min_verification_score:
        status = "verified"
    else:
        status = "warnings"
    return Verification(status, score, checks, pairs)
