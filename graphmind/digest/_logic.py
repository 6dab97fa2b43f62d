"""The three digests of rumination-digest-proposal.zh as pure functions (issue 6, first step).

- **Cross-pollination** (mechanism 1): ``n`` entries drawn uniformly at random, without
  replacement, from each topic's active entries (an injected ``random.Random``: seeded, it is
  reproducible), rendered as the proposal's ``<rumination-digest>`` block.
- **Thread convergence** (mechanism 2): a thread's concepts are the capitalised names and
  terms of its progress notes, the proposal's pattern ``\\b[A-Z][a-z]+(?:\\s[A-Z][a-z]+)*``,
  less capitalised function words ("The", "This", ...) (``prompts.digest.shared_concepts``,
  the one rule the offline digest prompt uses too). Two active threads sharing ≥ 2 concepts get
  a hint naming them; ≥ 3, a merge suggestion.
- **Decay-aware review** (mechanism 3): the proposal's rule and nothing else: active, dated
  entries with hit count 0 that are at least ``min_age_days`` (7) old, oldest first (ties: by
  id), at most ``limit`` (5); when none qualifies, nothing. An entry that was read (by recall,
  a rumination, a digest or a wander step: each counts a hit) is never listed again, however
  long ago the read. Rendered as the proposal's ``<forgotten-knowledge>`` block.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from graphmind.prompts.digest import shared_concepts


@dataclass(frozen=True)
class Entry:
    id: str
    topic: str
    text: str
    date: datetime | None = None
    hits: int = 0
    last_hit_at: datetime | None = None
    status: str = "active"

    def line(self) -> str:
        """The entry as a topic file holds it: ``[YYYY-MM-DD] text``."""
        return f"[{self.date:%Y-%m-%d}] {self.text}" if self.date else self.text


@dataclass(frozen=True)
class ThreadNotes:
    id: str
    title: str
    status: str = "active"
    progress_notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Convergence:
    a: str
    b: str
    shared: list[str]
    kind: str
    """hint (≥ 2 shared concepts) or merge (≥ 3)."""

    def sentence(self) -> str:
        text = f'Threads "{self.a}" and "{self.b}" share concepts: {", ".join(self.shared)}'
        return text + (" (consider merging)" if self.kind == "merge" else "")


@dataclass(frozen=True)
class Forgotten:
    entry: Entry
    age_days: int


def sample_topics(entries: Sequence[Entry], n: int, rng: random.Random) -> dict[str, list[Entry]]:
    """Up to ``n`` active entries of each topic, uniformly without replacement, topics sorted."""
    by_topic: dict[str, list[Entry]] = defaultdict(list)
    for e in sorted(entries, key=lambda e: (e.topic, e.id)):
        if e.status == "active":
            by_topic[e.topic].append(e)
    return {topic: rng.sample(items, min(n, len(items))) for topic, items in by_topic.items()}


def render_digest(samples: dict[str, list[Entry]]) -> str:
    blocks = [f"### {topic}\n" + "\n".join(f"- {e.line()}" for e in items) for topic, items in samples.items() if items]
    return "<rumination-digest>\n" + "\n\n".join(blocks) + "\n</rumination-digest>"


def convergence(threads: Sequence[ThreadNotes], hint_at: int = 2, merge_at: int = 3) -> list[Convergence]:
    active = [t for t in threads if t.status == "active"]
    found = []
    for i, a in enumerate(active):
        for b in active[i + 1 :]:
            shared = shared_concepts(a.progress_notes, b.progress_notes)
            if len(shared) >= hint_at:
                found.append(Convergence(a.title, b.title, shared, "merge" if len(shared) >= merge_at else "hint"))
    return found


def forgotten(entries: Sequence[Entry], now: datetime, *, min_age_days: int = 7, limit: int = 5) -> list[Forgotten]:
    """The never-read active entries at least ``min_age_days`` old, oldest first, at most ``limit``
    (dated ones only; a date in the future is no age at all). Calibrated on nothing but the
    proposal's own rule ("hit count = 0 and age > 7 days"): no ranking by a forgetting curve, so
    an entry read once is never offered as forgotten, and an empty list is a valid answer."""
    found = [
        Forgotten(e, (now - e.date).days)
        for e in entries
        if e.status == "active" and e.date is not None and e.hits == 0 and (now - e.date).days >= min_age_days
    ]
    return sorted(found, key=lambda f: (f.entry.date, f.entry.id))[: max(limit, 0)]


def render_forgotten(items: Sequence[Forgotten]) -> str:
    """The proposal's block ('' when nothing is forgotten)."""
    if not items:
        return ""
    lines = [f"- [{f.entry.topic}, {f.age_days}d ago] {f.entry.line()}" for f in items]
    return "<forgotten-knowledge>\n" + "\n".join(lines) + "\n</forgotten-knowledge>"
