"""What makes a crystal worth keeping, as small pure functions (issue 22, item 2).

- Evidence is memories of the mind (``RECALLED_LABELS``): never wander's working nodes
  (residues, resonances, loci) nor another crystal.
- ``connection``: what joins the evidence: the terms (stems) at least two evidence memories
  share, and the typed edges between them. No connection, no crystal.
- ``check``: an insight holds when most of its terms are in the evidence (``SUPPORT``), it
  names what connects at least two evidence memories (``MIN_SHARED`` shared terms, or one and
  a typed edge), and it is not template text.
- ``is_template``: the framing sentences wander's own dwellings write ("Both X and Y…",
  "No shared terms…", "New here: …", a word doubled by nesting, "Both Both").
- ``duplicate_of``: a crystal that repeats a kept one (the same evidence set, or content-term
  Jaccard ≥ ``DUPLICATE_JACCARD``) merges into it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from graphmind.models import RECALLED_LABELS
from graphmind.text import jaccard, stem, term_set

MIN_SHARED = 2
"""How many shared terms an insight must name (one is enough with a typed edge between its
memories): one common word ("late", "team") joins unrelated memories; checks.jsonl's held
insights name 2-3."""
SUPPORT = 0.6
"""The share of an insight's content terms the evidence must contain (the offline rule of
wander-technical-spec's answer verification)."""
DUPLICATE_JACCARD = 0.45
"""Content-term (stem) Jaccard from which two insights say the same thing. Calibrated on
tests/data/wander_crystals/pairs.jsonl (bench/wander_quality.py): balanced accuracy 1.0 on the
plateau 0.41-0.50 (paraphrases of one finding score 0.5-1.0, different findings over the same
subject 0-0.4); exact text equality, the baseline, finds none of the 10 paraphrases."""
_TEMPLATE = re.compile(
    r"^(?:both\b|no shared terms\b|no tension found\b|nothing unexpected\b|new here:|within\b.*:|"
    r"the evidence\b|these memories\b)|\bappear in\b|\bapplied to\b|↔",
    re.IGNORECASE,
)
_DOUBLED = re.compile(r"\b(\w{3,})\s+\1\b", re.IGNORECASE)
MEMORY_LABELS = frozenset(RECALLED_LABELS)


@dataclass(frozen=True)
class Evidence:
    id: str
    label: str
    text: str


@dataclass(frozen=True)
class Connection:
    """What joins the evidence: shared stems with the ids of the memories carrying each, and
    typed edges (a, type, b) between evidence memories."""

    shared: dict[str, tuple[str, ...]]
    edges: tuple[tuple[str, str, str], ...] = ()

    @property
    def ids(self) -> set[str]:
        return (
            {i for ids in self.shared.values() for i in ids} | {e[0] for e in self.edges} | {e[2] for e in self.edges}
        )

    def __bool__(self) -> bool:
        return bool(self.shared or self.edges)


@dataclass(frozen=True)
class Check:
    holds: bool
    confidence: float
    unsupported: tuple[str, ...]
    reason: str


def memory_evidence(items: Iterable[Evidence]) -> list[Evidence]:
    """The items that are memories of the mind (not working nodes, not crystals), once each."""
    return list({e.id: e for e in items if e.label in MEMORY_LABELS and e.text.strip()}.values())


def _stems(text: str) -> set[str]:
    return {stem(t) for t in term_set(text)}


def connection(evidence: Sequence[Evidence], edges: Iterable[tuple[str, str, str]] = ()) -> Connection:
    """The stems at least two evidence memories share, and the edges between evidence memories."""
    carriers: dict[str, list[str]] = {}
    for e in evidence:
        for s in _stems(e.text):
            carriers.setdefault(s, []).append(e.id)
    ids = {e.id for e in evidence}
    linked = tuple(sorted({(a, t, b) for a, t, b in edges if a in ids and b in ids and a != b}))
    return Connection({s: tuple(c) for s, c in sorted(carriers.items()) if len(set(c)) >= 2}, linked)


def is_template(text: str) -> bool:
    """Whether ``text`` is framing rather than a statement about the memories."""
    t = " ".join(text.split())
    return not t or bool(_TEMPLATE.search(t)) or bool(_DOUBLED.search(t))


def check(
    insight: str, evidence: Sequence[Evidence], edges: Iterable[tuple[str, str, str]] = (), support: float = SUPPORT
) -> Check:
    """Whether ``insight`` holds on ``evidence`` (memories only); the confidence is the share
    of its terms found, times the share of the evidence that the connection it names joins."""
    memories = memory_evidence(evidence)
    words = {stem(t): t for t in sorted(term_set(insight), reverse=True)}  # a stem shown as a word of the insight
    claimed = list(words)
    if len(memories) < 2:
        return Check(False, 0.0, tuple(words.values()), "a crystal needs at least two memories as evidence")
    if is_template(insight):
        return Check(False, 0.0, (), "template text, not a statement about the memories")
    known = set().union(*(_stems(m.text) for m in memories))
    unsupported = tuple(sorted(words[t] for t in claimed if t not in known))
    ratio = 1 - len(unsupported) / len(claimed) if claimed else 0.0
    joined = connection(memories, edges)
    named = {s: ids for s, ids in joined.shared.items() if s in set(claimed)}
    reach = set().union(*(set(ids) for ids in named.values())) if named else set()
    if joined.edges and named:
        reach |= {x for a, _, b in joined.edges for x in (a, b)}
    if ratio < support:
        return Check(False, round(ratio, 2), unsupported, "most of its terms are not in the evidence")
    if len(named) < MIN_SHARED - bool(joined.edges):
        return Check(False, 0.0, unsupported, "it names nothing that connects two of its memories")
    return Check(
        True,
        round(ratio * len(reach) / len(memories), 2),
        unsupported,
        f"{len(reach)} of {len(memories)} memories share {', '.join(sorted(words[s] for s in named)[:4])}",
    )


def duplicate_of(
    insight: str, evidence: Iterable[str], kept: Sequence[Mapping[str, Any]], threshold: float = DUPLICATE_JACCARD
) -> str | None:
    """The id of a kept crystal (``{id, insight, evidence}``) that ``insight`` repeats."""
    ids, mine = set(evidence), _stems(insight)
    for k in kept:
        if ids and set(k.get("evidence") or ()) == ids:
            return str(k["id"])
        if jaccard(mine, _stems(k.get("insight") or "")) >= threshold:
            return str(k["id"])
    return None
