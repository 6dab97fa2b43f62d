"""Verification (FR-2.1.6): five checks over the active patterns and the ladder (pure).

- vertical consistency (error): every SUBSUMES edge goes exactly one level down, no edge
  closes a cycle, every node below the top has a parent, and every child is explained by its
  parent better than by the parent's rivals (graphmind.dream.vertical: an embedding margin;
  with an online LLM, ``dream.subsumes`` decides the contested edges and its ``verdicts`` win);
- horizontal coherence (warning): nodes of one level are of a like degree: no level mixes
  nodes whose pattern spans differ more than ``SPAN_RATIO`` times, and no abstraction merely
  rewords its single member (the same name one level up);
- groundedness (error): every pattern stands on experiences, every abstraction reaches
  patterns (L3 → L2 → L1 → L0);
- non-contradiction (warning, the seed's "flag in verification, present both"): the pairs of
  patterns found to have the same conditions with conflicting actions (by rules offline, by
  ``dream.contradicts`` on the embedding-flagged pairs online: graphmind.dream.verifier);
- utility threshold (warning): every active pattern's utility ≥ ``min_utility``, except the
  patterns that record a failure (kept on purpose: a negative result is low in utility).

Each check scores 1 − the share of items it faults; the score is their mean. A check is
``failed`` (vertical: a structural fault, or more misplaced edges, and more than one, than a
true ladder shows by chance, ``vertical.too_many``; groundedness: any fault), ``flagged`` or ``passed``. Status: ``empty`` (no
abstraction), ``failed`` when a check failed, ``verified`` when none flagged anything and the
score reaches ``min_verification_score``, else ``flagged``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from graphmind.dream import rules
from graphmind.dream.integrate import item
from graphmind.dream.items import LadderNode, PatternState
from graphmind.dream.params import DreamParams
from graphmind.dream.vertical import Edge, Flag, Margin, VerticalParams, misplaced, structural_flags, too_many

SPAN_RATIO = 10


@dataclass(frozen=True)
class CheckResult:
    passed: bool
    message: str
    severity: str = "error"
    score: float = 1.0
    details: list[str] = field(default_factory=list)
    flagged: list[Flag] = field(default_factory=list)
    failed: bool = False


@dataclass(frozen=True)
class Verdict:
    """An LLM's answer on one contested edge (``dream.subsumes``)."""

    subsumes: bool
    message: str


@dataclass(frozen=True)
class Verification:
    status: str
    score: float
    checks: dict[str, CheckResult]
    contradictions: list[tuple[str, str]] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    """Node id → name, of the patterns and abstractions checked (to print a flag readably)."""

    @property
    def flagged(self) -> list[Flag]:
        return [f for c in self.checks.values() for f in c.flagged]

    @property
    def warnings(self) -> list[str]:
        return [c.message for c in self.checks.values() if not c.passed and c.severity == "warning"]

    @property
    def errors(self) -> list[str]:
        return [c.message for c in self.checks.values() if not c.passed and c.severity == "error"]

    def as_dict(self) -> dict[str, Any]:
        checks = {
            k: {
                "passed": c.passed,
                "status": "failed" if c.failed else "flagged" if not c.passed else "passed",
                "score": c.score,
                "message": c.message,
                "severity": c.severity,
                "found": c.details,
            }
            for k, c in self.checks.items()
        }
        return {
            "status": self.status,
            "score": self.score,
            "checks": checks,
            "flagged": [
                asdict(f) | {"parent_name": self.names.get(f.parent or ""), "child_name": self.names.get(f.child or "")}
                for f in self.flagged
            ],
            "warnings": self.warnings,
            "errors": self.errors,
        }


_FORMS = re.compile(r"\(([^|()]*)\|([^|()]*)\)")
EMPTY = Verification("empty", 1.0, {})


def _result(flags: list[Flag], total: int, ok: str, found: str, severity: str, failed: bool = False) -> CheckResult:
    """``found``: what was found, "(singular|plural)" choosing by the count ("{n} ungrounded
    (item|items)")."""
    score = round(1 - min(len(flags), total) / total, 4) if total else 1.0
    form = 1 if len(flags) == 1 else 2
    return CheckResult(
        not flags,
        _FORMS.sub(lambda m: m.group(form), found).format(n=len(flags)) if flags else ok,
        severity,
        score,
        [f.reason for f in flags],
        flags,
        failed,
    )


def ladder_edges(nodes: list[LadderNode]) -> list[Edge]:
    return [(n.id, m) for n in nodes for m in n.members]


def _named(node_id: str | None, names: Mapping[str, str]) -> str:
    """``id ("name")`` (the name cut to 40 characters), or the id alone."""
    name = " ".join((names.get(node_id or "") or "").split())
    if not node_id or not name or name == node_id:
        return str(node_id)
    return f'{node_id} ("{name if len(name) <= 40 else name[:39] + "…"}")'


def levels_of(patterns: list[PatternState], nodes: list[LadderNode]) -> dict[str, int | None]:
    levels: dict[str, int | None] = {p.id: 1 for p in patterns}
    return levels | {n.id: n.level for n in nodes}


def vertical(
    patterns: list[PatternState],
    nodes: list[LadderNode],
    margins: Mapping[Edge, Margin] | None = None,
    verdicts: Mapping[Edge, Verdict] | None = None,
    params: VerticalParams = VerticalParams(),
) -> CheckResult:
    """Structure, then meaning: an edge the LLM judged keeps its verdict; else its margin decides."""
    level_of, edges = levels_of(patterns, nodes), ladder_edges(nodes)
    names = {p.id: p.name for p in patterns} | {n.id: n.name for n in nodes}
    flags = structural_flags(level_of, edges)
    structural = bool(flags)
    verdicts = verdicts or {}
    for edge, margin in sorted((margins or {}).items()):
        verdict = verdicts.get(edge)
        if verdict is not None and not verdict.subsumes:
            flags.append(Flag("vertical_consistency", *edge, f"the LLM: {verdict.message}"))
        elif verdict is None and misplaced(margin, params):
            flags.append(
                Flag(
                    "vertical_consistency",
                    *edge,
                    f"{_named(margin.rival, names)} explains {edge[1]} better than its parent does "
                    f"(margin {margin.value:.3f}, {margin.z(params.min_spread):.2f} spreads among {margin.candidates}: "
                    f"score {margin.score(params.min_spread):.2f})",
                )
            )
    misplaced_edges = len(flags)
    flags += [
        Flag("vertical_consistency", n.id, None, f"{n.id} (level {n.level}) subsumes nothing")
        for n in nodes
        if not n.members
    ]
    top = max((lvl for lvl in level_of.values() if lvl is not None), default=1)
    children = {m for n in nodes for m in n.members}
    flags += [
        Flag("vertical_consistency", None, i, f"{i} (level {lvl}) has no parent at level {lvl + 1}")
        for i, lvl in level_of.items()
        if lvl is not None and lvl < top and nodes and i not in children
    ]
    failed = structural or too_many(misplaced_edges, len(edges), params)
    return _result(
        flags,
        max(len(edges), len(flags)),
        "Vertical consistency verified",
        "{n} vertical (inconsistency|inconsistencies)",
        "error",
        failed,
    )


def horizontal(patterns: list[PatternState], nodes: list[LadderNode]) -> CheckResult:
    span = {p.id: 1 for p in patterns}
    names = {p.id: p.name.lower() for p in patterns} | {n.id: n.name.lower() for n in nodes}
    flags = []
    for level in sorted({n.level for n in nodes}):
        at = [n for n in nodes if n.level == level]
        for n in at:
            span[n.id] = sum(span.get(m, 0) for m in n.members)
            if len(n.members) == 1 and names.get(n.members[0]) == n.name.lower():
                flags.append(
                    Flag(
                        "horizontal_coherence",
                        n.id,
                        n.members[0],
                        f'Level {level} "{n.name}" only rewords {n.members[0]}',
                    )
                )
        spans = [span[n.id] for n in at]
        if min(spans) and max(spans) > SPAN_RATIO * min(spans):
            flags.append(
                Flag(
                    "horizontal_coherence",
                    None,
                    None,
                    f"Level {level} mixes spans of {min(spans)} and {max(spans)} patterns",
                )
            )
    return _result(
        flags, len(nodes), "Horizontal coherence verified", "{n} horizontal (incoherence|incoherences)", "warning"
    )


def grounded(patterns: list[PatternState], nodes: list[LadderNode]) -> CheckResult:
    reaches = {p.id: p.usage_count > 0 for p in patterns}
    for n in sorted(nodes, key=lambda n: n.level):
        reaches[n.id] = any(reaches.get(m, False) for m in n.members)
    flags = [
        Flag("groundedness", None, i, f"{i} does not trace down to experiences") for i, ok in reaches.items() if not ok
    ]
    return _result(
        flags,
        len(reaches),
        "Every abstraction traces down to experiences",
        "{n} ungrounded (item|items)",
        "error",
        bool(flags),
    )


def contradictions(patterns: list[PatternState]) -> list[tuple[str, str]]:
    """The pairs of patterns that contradict by rules (the same conditions, conflicting actions)."""
    items = [item(p) for p in sorted(patterns, key=lambda p: p.id)]
    return [(a.id, b.id) for i, a in enumerate(items) for b in items[i + 1 :] if rules.contradiction(a, b) is not None]


def verify(
    patterns: list[PatternState],
    nodes: list[LadderNode],
    params: DreamParams,
    *,
    margins: Mapping[Edge, Margin] | None = None,
    verdicts: Mapping[Edge, Verdict] | None = None,
    contradicting: list[tuple[str, str]] | None = None,
    vertical_params: VerticalParams = VerticalParams(),
) -> Verification:
    """The five checks over the active ``patterns`` and the ``nodes`` of the ladder. Without
    ``margins`` the vertical check sees structure only; without ``contradicting`` the pairs
    are found by rules."""
    active = [p for p in patterns if p.active]
    pairs = contradictions(active) if contradicting is None else sorted(contradicting)
    checks = {
        "vertical_consistency": vertical(active, nodes, margins, verdicts, vertical_params),
        "horizontal_coherence": horizontal(active, nodes),
        "groundedness": grounded(active, nodes),
        "non_contradiction": _result(
            [Flag("non_contradiction", a, b, f"Patterns {a} and {b} contradict") for a, b in pairs],
            len(active),
            "No contradictions found",
            "Found {n} (contradiction|contradictions)",
            "warning",
        ),
        "utility_threshold": _result(
            [
                Flag("utility_threshold", None, p.id, f"{p.id} utility {p.utility:.2f}")
                for p in active
                if p.utility < params.min_utility and not p.tally.records_failure(params.failure_share)
            ],
            len(active),
            _utility_ok(active, params),
            "{n} (pattern|patterns) below the utility threshold",
            "warning",
        ),
    }
    return Verification(overall(checks, params.min_verification_score), score(checks), checks, pairs)


def _utility_ok(active: list[PatternState], params: DreamParams) -> str:
    """A pattern that records a failure is exempt from the utility threshold: say so."""
    exempt = sum(p.utility < params.min_utility and p.tally.records_failure(params.failure_share) for p in active)
    if not exempt:
        return "All patterns meet the utility threshold"
    return f"All patterns meet the utility threshold, except {exempt} recording a failure (kept as negative results)"


def score(checks: Mapping[str, CheckResult]) -> float:
    return round(sum(c.score for c in checks.values()) / len(checks), 4) if checks else 1.0


def overall(checks: Mapping[str, CheckResult], min_score: float) -> str:
    """failed (a check failed) | verified (nothing flagged, score ≥ ``min_score``) | flagged."""
    if any(c.failed for c in checks.values()):
        return "failed"
    if all(c.passed for c in checks.values()) and score(checks) >= min_score:
        return "verified"
    return "flagged"
