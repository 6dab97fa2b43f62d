"""The dreaming pipeline's working data: experiences, patterns and ladder nodes in memory.

Vectors travel beside these records as numpy arrays (row i belongs to item i); the records
themselves are plain, inert data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

OUTCOME_SCORE = {"success": 1.0, "progress": 0.5, "failure": 0.0}


@dataclass(frozen=True)
class ExperienceRow:
    """One unconsumed experience as the dream reads it."""

    id: str
    description: str
    outcome: str
    kind: str = "move"
    strategy_used: str | None = None
    session_id: str | None = None
    timestamp: str | None = None
    importance: float | None = None
    confidence: float | None = None
    impact: str | None = None
    deferred: bool = False
    """An earlier run saw it and left it for later (in no cluster big enough)."""
    deferred_by: str | None = None
    """The run that deferred it last."""
    invalid: bool = False
    """No longer valid: superseded or contradicted since its capture, or valid only until a past time."""
    replaces: bool = False
    """It supersedes or contradicts older memories (the newer version of a fact)."""

    @property
    def breakthrough(self) -> bool:
        """Insights and high-impact experiences: triage always keeps them."""
        return self.kind == "insight" or self.impact == "high"


def seen_together(rows: Sequence[ExperienceRow], limit: int) -> bool:
    """Every row was deferred, last by one same run: that run weighed them all together and
    would again, so only something new is worth a run (rows deferred by different runs, such
    as two sessions' ends, have never met). A full read (``limit`` rows) of deferred rows only
    counts as seen too: it is a slice of a larger backlog of them, whose slices would be
    weighed again night after night without end."""
    if not all(r.deferred for r in rows):
        return False
    return len(rows) >= limit or len({r.deferred_by for r in rows}) == 1


def strategy_key(row: ExperienceRow) -> str | None:
    """The strategy the agent named, compared without case or spacing; None when it named
    none (placeholders such as "unknown" never reach here: the models drop them)."""
    return name_of_strategy(row.strategy_used)


def filed_apart(names: frozenset[str], others: frozenset[str]) -> bool:
    """Experiences filed under ``names`` and under ``others`` (strategy keys) are different
    techniques by the agent's own word: both named, no name shared."""
    return bool(names) and bool(others) and names.isdisjoint(others)


def name_of_strategy(text: str | None) -> str | None:
    """A strategy name as ``strategy_key`` compares it."""
    key = " ".join((text or "").casefold().split())
    return key or None


@dataclass
class Tally:
    """Outcome counts of the experiences behind a pattern (duplicates included)."""

    success: int = 0
    progress: int = 0
    failure: int = 0
    errors: int = 0

    @property
    def total(self) -> int:
        return self.success + self.progress + self.failure

    def add(self, outcome: str, kind: str, weight: int = 1) -> None:
        setattr(self, outcome, getattr(self, outcome) + weight)
        if kind == "error":
            self.errors += weight

    def records_failure(self, share: float) -> bool:
        """At least ``share`` of the experiences failed (and one did): the evidence that an
        approach did not work (``DreamParams.failure_share``)."""
        return self.failure > 0 and self.failure >= share * self.total

    @property
    def success_rate(self) -> float | None:
        """(success + ½ progress) / total; none when every experience is an error correction
        (the seed's "N/A (error recovery)")."""
        if not self.total or self.errors == self.total:
            return None
        return round((self.success + 0.5 * self.progress) / self.total, 4)


@dataclass
class PatternState:
    """A pattern of this run: new, grown by new experiences, or loaded unchanged."""

    id: str
    name: str
    description: str
    pattern_type: str
    centroid: np.ndarray
    tally: Tally
    conditions: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)
    new_members: list[str] = field(default_factory=list)
    """Experience ids this run links to it (EXEMPLIFIES)."""
    cohesion: float = 1.0
    status: str = "active"
    pruned_reason: str | None = None
    superseded_by: str | None = None
    verification_status: str = "unverified"
    stored_verification: str | None = None
    """The verification status the graph holds (None for a new pattern)."""
    is_new: bool = False
    changed: bool = False
    evidence: tuple[Any, Any] | None = None
    """(first, last) time of the stored experiences behind it, as the store holds them (None
    for a new pattern; graphmind.dream.supersede reads them)."""
    strategies: frozenset[str] = frozenset()
    """The strategy names (``strategy_key``) its experiences were filed under."""
    stale: bool = False
    """Experiences of it stopped holding since it was extracted: its text may state the
    replaced fact (graphmind.dream.refresh extracts it again)."""
    refreshed: bool = False
    """Extracted again by this run (graphmind.dream.refresh)."""
    superseded_itself: bool = False
    """A memory supersedes or contradicts the pattern itself (not only its experiences)."""
    revived: bool = False
    """Stored ``invalidated`` because every experience behind it was superseded, and this run
    gave it a valid one that replaces nothing (the technique told again, not its newer
    version, which the pattern's old text would misstate): it holds again (``invalid_at`` goes)."""

    @property
    def usage_count(self) -> int:
        return self.tally.total

    @property
    def success_rate(self) -> float | None:
        return self.tally.success_rate

    @property
    def confidence(self) -> float:
        """Cohesion of the cluster (mean cosine of members to the centroid) shrunk by its
        size: n / (n + 2). Three tight experiences give 0.6, thirty give 0.94."""
        n = self.usage_count
        return round(max(0.0, min(1.0, self.cohesion)) * n / (n + 2), 4)

    @property
    def utility(self) -> float:
        """The seed's utility: 0.5·success rate + 0.3·usage/100 (capped at 1) + 0.2·confidence.
        An error-recovery pattern (no success rate) counts its rate as 0.5."""
        rate = 0.5 if self.success_rate is None else self.success_rate
        return round(0.5 * rate + 0.3 * min(1.0, self.usage_count / 100) + 0.2 * self.confidence, 4)

    @property
    def active(self) -> bool:
        return self.status == "active"


@dataclass
class LadderNode:
    """An abstraction (level 2-4) over nodes one level down."""

    id: str
    level: int
    members: list[str]
    centroid: np.ndarray
    name: str = ""
    generalization: str = ""
    is_new: bool = True
    key_phrases: list[str] = field(default_factory=list)
    """c-TF-IDF phrases general to its members (``naming``): the offline name, a hint online."""


@dataclass(frozen=True)
class Connection:
    """``(:Pattern)-[:CONNECTS {kind, strength, evidence}]->(:Pattern)``."""

    from_id: str
    to_id: str
    kind: str
    strength: float
    evidence: tuple[str, ...] = ()
    rationale: str = ""


def normalised(vector: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    return (vector / norm).astype(np.float32) if norm > 0 else vector.astype(np.float32)


def filled(
    stored: Sequence[np.ndarray | None], texts: Sequence[str], embed: Callable[[list[str]], np.ndarray], dimensions: int
) -> np.ndarray:
    """Row i: ``stored[i]``, or where that is None the embedding ``embed`` makes of ``texts[i]``."""
    out = np.zeros((len(stored), dimensions), dtype=np.float32)
    missing = [i for i, v in enumerate(stored) if v is None]
    for i, v in enumerate(stored):
        if v is not None:
            out[i] = v
    if missing:
        out[missing] = embed([texts[i] for i in missing])
    return out


def centroid_of(vectors: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """The normalised (weighted) mean of unit rows."""
    mean = np.average(vectors, axis=0, weights=weights) if len(vectors) else vectors.sum(axis=0)
    return normalised(mean)
