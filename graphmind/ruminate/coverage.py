"""Coverage: which of the eight node types hold data relevant to a stimulus in one mind.

Relevance has three sources, as the issue asks: entity mentions (names, file names and
identifiers of the stimulus go into the full-text search whole), vector similarity, and the
graph neighbourhood of what matched. Read -> pure -> read:

1. recall's two searches (``Recaller.search``) over the eight types and the night cycle's
   Pattern, Abstraction and Crystal nodes (strategic evidence, counted for Strategy_Pattern),
   and apart over the captured experiences (``PENDING``: those no pattern holds yet first);
2. ``seeds`` (pure): a vector candidate is relevant from cosine ``MIN_COSINE`` up, a full-text
   candidate when its score is at least ``TEXT_FLOOR`` of the best full-text score;
3. one named query (``ruminate/get_coverage``) returns the whole map: per type, its seeds, the
   seeds' neighbours and its best similarity, plus every energised node for the V2 signals.
"""

from __future__ import annotations

import dataclasses
import re
import time
from dataclasses import dataclass, field
from typing import Any

from graphmind.prompts._models import NODE_TYPES, NodeType
from graphmind.recall import Candidates, Recaller
from graphmind.ruminate.gaps import EnergisedNode, GapSignals, GapWeights, signals
from graphmind.store import GraphStore

CONSOLIDATED = ("Pattern", "Abstraction", "Crystal")
"""Night-cycle nodes that count as evidence for the Strategy_Pattern perspective."""
PENDING = ("Experience",)
"""Captured experiences count for it too (superseded ones left out): what the agent captured
since the last dream is not "nothing in memory", and one a pattern holds still matches when it
says more than its pattern ("Ruth's mic crackled" under a radio-mic pattern; relevance drops
one whose pattern says all it shares with the stimulus). They are searched apart
(``PENDING_SEEDS`` at most), so that a dreamed mind's many experiences never crowd its patterns
out of the searches; the label's vector score and the linked reads leave exemplified ones out."""
EVIDENCE = (*CONSOLIDATED, *PENDING)
"""The labels that fold into Strategy_Pattern."""
SEARCH_LABELS = (*NODE_TYPES, *CONSOLIDATED)
PENDING_SEEDS = 5
PENDING_FETCH = 200
"""Their search asks each index for at most this many candidates: a mind with few or no
experiences would otherwise make the full-text search over every mind's index fetch up to
recall's cap looking for them (per rumination p50 38.8 -> 54.6 ms on a 10,000-memory mind
with none, ``bench/ruminate_bench.py``)."""
MIN_COSINE = 0.25
"""Below this cosine a vector neighbour is not relevant (all-MiniLM-L6-v2 puts unrelated short
texts at 0.0-0.2)."""
TEXT_FLOOR = 0.5
DEPTH = 30
MAX_SEEDS = 20
"""At most this many matches energise the graph (the best of each search first)."""
NEIGHBOURS = 5
"""Each match energises at most this many linked memories."""
_PHRASE = re.compile(r"[\w./-]*[\w][._/-][\w./-]*\w")


@dataclass(frozen=True)
class TypeCoverage:
    """One node type: the ids of its seeds, of its energised neighbours, and its best cosine
    similarity to the stimulus (None when the vector search saw none of its nodes)."""

    node_type: str
    matched: list[str] = field(default_factory=list)
    neighbours: list[str] = field(default_factory=list)
    similarity: float | None = None

    @property
    def relevant(self) -> bool:
        return bool(self.matched or self.neighbours)

    def as_dict(self) -> dict[str, Any]:
        return {
            "relevant": self.relevant,
            "matched": self.matched,
            "neighbours": self.neighbours,
            "similarity": None if self.similarity is None else round(self.similarity, 4),
        }


@dataclass(frozen=True)
class Coverage:
    """The coverage map of a stimulus, and the V2 gap signals over what it energised."""

    types: dict[NodeType, TypeCoverage]
    best_cosine: float | None
    signals: GapSignals
    energised: list[EnergisedNode]
    graph_ms: float = 0.0
    """Milliseconds the searches and the coverage query spent, without embedding the stimulus."""

    @property
    def relevant_types(self) -> list[str]:
        return [t for t, c in self.types.items() if c.relevant]

    def similarity(self) -> dict[str, float]:
        return {t: c.similarity for t, c in self.types.items() if c.similarity is not None}

    def as_dict(self) -> dict[str, Any]:
        return {
            "types": {t: c.as_dict() for t, c in self.types.items()},
            "best_similarity": None if self.best_cosine is None else round(self.best_cosine, 4),
            "signals": self.signals.as_dict(),
        }


def phrases(stimulus: str) -> list[str]:
    """File names and identifiers of the stimulus (``stimulus_integrator.py``, ``a/b``), which
    the full-text search must match whole."""
    return list(dict.fromkeys(m.group(0) for m in _PHRASE.finditer(stimulus)))


def seeds(
    found: Candidates, *, min_cosine: float = MIN_COSINE, text_floor: float = TEXT_FLOOR, limit: int = MAX_SEEDS
) -> list[str]:
    """The uids of the relevant candidates (see the module docstring), at most ``limit``, taken
    from the two searches in turn, best first."""
    vector = [c.uid for c in found.vector if cosine(c.score) >= min_cosine]
    best = found.text[0].score if found.text else 0.0
    text = [c.uid for c in found.text if c.score >= text_floor * best]
    interleaved = [uid for pair in zip(vector, text) for uid in pair]
    longer = vector[len(text) :] if len(vector) > len(text) else text[len(vector) :]
    return list(dict.fromkeys(interleaved + longer))[:limit]


def cosine(index_score: float) -> float:
    """The cosine similarity behind a vector index score ((1 + cosine) / 2)."""
    return 2.0 * index_score - 1.0


def detect(
    store: GraphStore,
    recaller: Recaller,
    mind: str,
    stimulus: str,
    *,
    sender: str | None = None,
    weights: GapWeights = GapWeights(),
    min_cosine: float = MIN_COSINE,
) -> Coverage:
    """The coverage map of ``stimulus`` (from ``sender``) in ``mind``."""
    query = f"{stimulus} {sender}" if sender else stimulus
    clock = time.perf_counter()
    found = recaller.search(mind, query, DEPTH, SEARCH_LABELS, phrases=phrases(stimulus))
    pending = recaller.search(mind, query, DEPTH, PENDING, phrases=phrases(stimulus), max_fetch=PENDING_FETCH)
    row = store.read(
        "ruminate/get_coverage",
        mind=mind,
        seeds=seeds(found, min_cosine=min_cosine),
        pending=seeds(pending, min_cosine=min_cosine, limit=DEPTH),
        pending_limit=PENDING_SEEDS,
        candidates=[{"uid": c.uid, "score": c.score} for c in [*found.vector, *pending.vector]],
        labels=[*SEARCH_LABELS, *PENDING],
        neighbours=NEIGHBOURS,
    )[0]
    embedding = found.timings_ms.get("embed_query", 0.0) + pending.timings_ms.get("embed_query", 0.0)
    graph_ms = (time.perf_counter() - clock) * 1000 - embedding
    return dataclasses.replace(coverage_from_row(row, weights), graph_ms=round(graph_ms, 2))


def coverage_from_row(row: dict[str, Any], weights: GapWeights = GapWeights()) -> Coverage:
    """The Coverage of a ``ruminate/get_coverage`` row; consolidated labels fold into
    Strategy_Pattern."""
    types = {t: TypeCoverage(t) for t in NODE_TYPES}
    for entry in row["coverage"]:
        target: NodeType = "Strategy_Pattern" if entry["label"] in EVIDENCE else entry["label"]
        _merge(types, target, entry)
    energised = [
        EnergisedNode(id=n["id"], label=n["label"], props=n["props"], orphan=n["orphan"]) for n in row["energised"]
    ]
    similarities = [c.similarity for c in types.values() if c.similarity is not None]
    best = max(similarities, default=None)
    return Coverage(
        types=types, best_cosine=best, signals=signals(best, energised, weights=weights), energised=energised
    )


def _merge(types: dict[NodeType, TypeCoverage], target: NodeType, entry: dict[str, Any]) -> None:
    known = types[target]
    score = entry["best_score"]
    similarity = cosine(score) if score is not None else None
    if known.similarity is not None and (similarity is None or known.similarity > similarity):
        similarity = known.similarity
    types[target] = TypeCoverage(
        target, known.matched + list(entry["matched"]), known.neighbours + list(entry["neighbours"]), similarity
    )
