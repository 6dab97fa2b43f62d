"""The three digests of rumination-digest-proposal.zh as pure functions (issue 6, first step).

- **Cross-pollination** (mechanism 1): ``n`` entries drawn uniformly at random, without
  replacement, from each topic's active entries (an injected ``random.Random``: seeded, it is
  reproducible), rendered as the proposal's ``<rumination-digest>`` block.
- **Thread convergence** (mechanism 2): a thread's concepts are the capitalised names and
  terms of its progress notes, the proposal's pattern ``\\b[A-Z][a-z]+(?:\\s[A-Z][a-z]+)*``,
  less capitalised function words ("The", "This", ...). Two active threads sharing ≥ 2
  concepts get a hint naming them; ≥ 3, a merge suggestion.
- **Decay-aware review** (mechanism 3): active entries at least ``min_age_days`` old, ranked by
  FSRS's power-law forgetting curve R = (1 + F·t/S)^−w (F = 19/81, w = 0.5, so R = 0.9 when
  t = S), where each hit is a review: t counts days since the last hit (else since the
  entry's date) and the stability S = ``stability_days`` · ``growth``^hits. The lowest R
  comes first (ties: the oldest), at most ``limit``; an entry read once long ago can surface
  beside never-read ones. Rendered as the proposal's ``<forgotten-knowledge>`` block.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from graphmind.text import STOPWORDS

CONCEPT = re.compile(r"\b[A-Z][a-z]+(?:\s[A-Z][a-z]+)*")
FSRS_FACTOR, FSRS_DECAY = 19 / 81, 0.5


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
    retrievability: float


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


def concepts(notes: Sequence[str]) -> list[str]:
    """Capitalised names and terms of ``notes``, in order of first appearance."""
    found: dict[str, None] = {}
    for match in (m for note in notes for m in CONCEPT.findall(note)):  # per note: no name spans two
        words = match.split()
        while words and words[0].lower() in STOPWORDS:  # "The Watsuji" -> "Watsuji"
            words = words[1:]
        if words:
            found.setdefault(" ".join(words), None)
    return list(found)


def convergence(threads: Sequence[ThreadNotes], hint_at: int = 2, merge_at: int = 3) -> list[Convergence]:
    active = [t for t in threads if t.status == "active"]
    named = [(t, concepts(t.progress_notes)) for t in active]
    found = []
    for i, (a, ca) in enumerate(named):
        for b, cb in named[i + 1:]:
            shared = [c for c in ca if c in set(cb)]
            if len(shared) >= hint_at:
                found.append(Convergence(a.title, b.title, shared, "merge" if len(shared) >= merge_at else "hint"))
    return found


def retrievability(days: float, hits: int, stability_days: float, growth: float) -> float:
    stability = stability_days * growth ** hits
    return (1 + FSRS_FACTOR * max(days, 0.0) / stability) ** -FSRS_DECAY


def forgotten(entries: Sequence[Entry], now: datetime, *, min_age_days: int = 7, limit: int = 5,
              stability_days: float = 1.0, growth: float = 3.0) -> list[Forgotten]:
    """The active entries most likely forgotten, at least ``min_age_days`` old (dated ones only;
    a date in the future is no age at all)."""
    ranked = []
    for e in entries:
        if e.status != "active" or e.date is None:
            continue
        age = (now - e.date).days
        if age < min_age_days:
            continue
        since = (now - (e.last_hit_at or e.date)).total_seconds() / 86400
        ranked.append(Forgotten(e, age, round(retrievability(since, e.hits, stability_days, growth), 4)))
    return sorted(ranked, key=lambda f: (f.retrievability, -f.age_days, f.entry.id))[:limit]


def render_forgotten(items: Sequence[Forgotten]) -> str:
    """The proposal's block ('' when nothing is forgotten)."""
    if not items:
        return ""
    lines = [f"- [{f.entry.topic}, {f.age_days}d ago] {f.entry.line()}" for f in items]
    return "<forgotten-knowledge>\n" + "\n".join(lines) + "\n</forgotten-knowledge>"
