"""Which side of a contradicted pattern pair loses (pure).

Verification's horizontal check finds pairs of patterns that contradict each other (the same
conditions, conflicting actions). When the evidence of one is entirely older than the
evidence of the other, by at least ``DreamParams.supersede_gap_hours``, practice changed: the
older pattern is superseded. It is kept (status ``pruned``, ``pruned_reason: contradicted``,
SUPERSEDED_BY the newer), marked ``invalidated`` and ``invalid_at`` the time the newer evidence
began, and recall ranks it below valid facts. When their evidence overlaps in time, or lies
closer than the gap (one sitting), or a side's dates are unknown, neither is shown wrong: the
pair stays flagged (CONTRADICTS, both unverified) for a person or an online LLM to settle.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from graphmind.dream.items import ExperienceRow, PatternState
from graphmind.models.base import as_datetime

Span = tuple[datetime, datetime]
"""(first, last) time of the experiences behind a pattern."""


@dataclass(frozen=True)
class Superseded:
    """``loser`` is superseded by ``winner``, invalid from ``at``."""

    loser: str
    winner: str
    at: datetime


def loser(a: Span | None, b: Span | None, gap: timedelta) -> int | None:
    """0 when ``a``'s evidence all precedes ``b``'s by at least ``gap``, 1 for the reverse,
    None for a tie (overlapping or close evidence, or a side without dates)."""
    if a is None or b is None:
        return None
    if a[1] + gap <= b[0]:
        return 0
    if b[1] + gap <= a[0]:
        return 1
    return None


def evidence_span(p: PatternState, rows: Mapping[str, ExperienceRow]) -> Span | None:
    """The span of ``p``'s stored evidence widened by the experiences this run adds to it."""
    times = [as_datetime(rows[i].timestamp) for i in p.new_members if i in rows]
    times += [as_datetime(t) for t in p.evidence or ()]
    known = [t for t in times if t is not None]
    return (min(known), max(known)) if known else None


def resolve(
    patterns: Iterable[PatternState], pairs: Iterable[tuple[str, str]], rows: Iterable[ExperienceRow], gap: timedelta
) -> list[Superseded]:
    """The contradicted pairs that have a loser, each loser once: superseded by the rival
    whose evidence began first (from then on it no longer held)."""
    by_row = {r.id: r for r in rows}
    spans = {p.id: evidence_span(p, by_row) for p in patterns}
    found: dict[str, Superseded] = {}
    for a, b in sorted(pairs):
        sa, sb = spans.get(a), spans.get(b)
        side = loser(sa, sb, gap)
        if side is None or sa is None or sb is None:
            continue
        lost, won, at = (a, b, sb[0]) if side == 0 else (b, a, sa[0])
        if lost not in found or at < found[lost].at:
            found[lost] = Superseded(lost, won, at)
    return sorted(found.values(), key=lambda s: s.loser)
