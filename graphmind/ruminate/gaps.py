"""Gap detection's pure parts (seed P02, "How Gap Detection Works"): the three V2 signals, the
V1 coverage score, and which gap to follow next.

**Which score drives stopping.** The V1 coverage score (the seed's ``_compute_gaps``: node
types without data / 8) decides when rumination may crystallize: below ``gap_threshold``
(0.3) it stops, once every type the coverage map found relevant has been explored (without
that, a stimulus that matches six types at once would stop before its feelings or past
failures, linked to what matched, were ever looked at), and the Dreamer's [CRYSTALLIZE] is
honoured only below 0.5. The V2 signals
(semantic, quality, structural and their composite) describe how well the mind's graph fits
the stimulus; they are computed at the start and after every step over the nodes rumination
has energised, stored with each step and shown to the Dreamer, but they do not stop the loop:
the semantic gap of a stimulus the mind knows little about stays high however thoroughly the
mind is searched, and rumination should still end once every perspective has been explored.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from graphmind.models import node_model
from graphmind.models.base import GraphNode, as_datetime
from graphmind.prompts._models import NODE_TYPES

HIGH_SEMANTIC_GAP = 0.6
LOW_SEMANTIC_GAP = 0.4
RECENCY_HALF_LIFE_DAYS = 90.0
"""A node's recency halves every 90 days since its newest date (timestamp, deadline excluded)."""
_DATES = ("timestamp", "last_hit_at", "created_at")
_BASE_FIELDS = frozenset(GraphNode.model_fields)


@dataclass(frozen=True)
class GapWeights:
    """Weights of the composite gap (the seed's 0.4 / 0.3 / 0.3)."""

    semantic: float = 0.4
    quality: float = 0.3
    structural: float = 0.3


@dataclass(frozen=True)
class GapSignals:
    """The three V2 gap signals and their weighted composite, each in 0..1 (high = missing)."""

    semantic: float
    quality: float
    structural: float
    composite: float

    @property
    def semantic_level(self) -> str:
        """ "high" (>= 0.6: no structure fits), "low" (< 0.4: good structure), else "medium"."""
        if self.semantic >= HIGH_SEMANTIC_GAP:
            return "high"
        return "low" if self.semantic < LOW_SEMANTIC_GAP else "medium"

    def as_dict(self) -> dict[str, Any]:
        return {
            "semantic": round(self.semantic, 4),
            "quality": round(self.quality, 4),
            "structural": round(self.structural, 4),
            "composite": round(self.composite, 4),
            "semantic_level": self.semantic_level,
        }


@dataclass(frozen=True)
class EnergisedNode:
    """A node the stimulus (or rumination) touched: matched directly or a neighbour of one."""

    id: str
    label: str
    props: Mapping[str, Any]
    orphan: bool


def signals(
    best_cosine: float | None,
    nodes: Sequence[EnergisedNode],
    *,
    now: datetime | None = None,
    weights: GapWeights = GapWeights(),
) -> GapSignals:
    """The V2 signals of a stimulus given the best cosine similarity of any of the mind's nodes
    to it and the energised nodes."""
    semantic = semantic_gap(best_cosine)
    quality = quality_gap(nodes, now or datetime.now(UTC))
    structural = structural_gap(nodes)
    composite = weights.semantic * semantic + weights.quality * quality + weights.structural * structural
    return GapSignals(semantic, quality, structural, _unit(composite))


def semantic_gap(best_cosine: float | None) -> float:
    """1 - the best similarity of the stimulus to the mind's nodes (1 when nothing compares)."""
    return 1.0 if best_cosine is None else _unit(1.0 - best_cosine)


def quality_gap(nodes: Sequence[EnergisedNode], now: datetime) -> float:
    """1 - the mean quality of the energised nodes (1 when none): quality is 0.7 x the share of
    the node type's properties that are filled + 0.3 x recency."""
    if not nodes:
        return 1.0
    return _unit(1.0 - sum(0.7 * completeness(n) + 0.3 * recency(n, now) for n in nodes) / len(nodes))


def structural_gap(nodes: Sequence[EnergisedNode]) -> float:
    """The share of energised nodes that are orphans (linked to no other memory; 1 when none)."""
    if not nodes:
        return 1.0
    return sum(n.orphan for n in nodes) / len(nodes)


def completeness(node: EnergisedNode) -> float:
    """The share of the node type's own properties (not graphmind's) that hold a value."""
    fields = [name for name in node_model(node.label).model_fields if name not in _BASE_FIELDS]
    if not fields:
        return 1.0
    return sum(node.props.get(name) not in (None, "", []) for name in fields) / len(fields)


def recency(node: EnergisedNode, now: datetime) -> float:
    """exp-decay of the node's newest date, half-life 90 days; 0.5 when it has none."""
    dates = [as_datetime(node.props.get(name)) for name in _DATES]
    newest = max((d for d in dates if d is not None), default=None)
    if newest is None:
        return 0.5
    age_days = max(0.0, (now - newest).total_seconds() / 86_400)
    return float(0.5 ** (age_days / RECENCY_HALF_LIFE_DAYS))


def coverage_score(found_types: Iterable[str]) -> float:
    """The V1 score: the share of the eight node types rumination has found no data for."""
    found = set(found_types) & set(NODE_TYPES)
    return (len(NODE_TYPES) - len(found)) / len(NODE_TYPES)


_PERSON_WORDS = ("person", "partner")
_KEYWORD_RULES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("bug", "code", "race", "error", "file"), ("Technical_Context", "Code_Reference", "Failed_Attempt")),
    (("deadline", "launch", "pressure", "time"), ("Constraint",)),
    (("feel", "frustrat", "anxious", "excit"), ("Emotional_State",)),
)


def prioritize(
    gaps: Iterable[str],
    stimulus: str,
    *,
    sender: str | None = None,
    people: Iterable[str] = (),
    similarity: Mapping[str, float] | None = None,
    relevant: Iterable[str] = (),
) -> list[str]:
    """``gaps`` ranked, most pressing first: the seed's keyword heuristics, then the rest: the
    types the coverage map found relevant first, each group by the similarity of the stimulus
    to the type's best node (most similar first).

    The seed's person rule names its own people ("nicolas", "marco"); here it fires when the
    stimulus names one of ``people`` (the mind's partners) or has a ``sender``: a message from
    someone always involves a person.
    """
    gaps = [g for g in NODE_TYPES if g in set(gaps)]
    text = stimulus.lower()
    order: list[str] = []
    names = [p.lower() for p in people if p]
    if sender or any(word in text for word in _PERSON_WORDS) or any(name in text for name in names):
        order += ["Partnership", "Conversation_Memory"]
    for words, types in _KEYWORD_RULES:
        if any(word in text for word in words):
            order += types
    ranked = [g for g in dict.fromkeys(order) if g in gaps]
    similarity = similarity or {}
    relevant = set(relevant)
    rest = sorted((g for g in gaps if g not in ranked), key=lambda g: (g not in relevant, -similarity.get(g, -1.0)))
    return ranked + rest


def _unit(value: float) -> float:
    return min(1.0, max(0.0, value)) if not math.isnan(value) else 1.0
