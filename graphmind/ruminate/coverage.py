"""Coverage: which of the eight node types hold data relevant to a stimulus in one mind.

Relevance has three sources, as the issue asks: entity mentions (names, file names and
identifiers of the stimulus go into the full-text search whole), vector similarity, and the
graph neighbourhood of what matched. Read -> pure -> read:

1. recall's two searches (``Recaller.search``) over the eight types and the night cycle's
   Pattern, Abstraction and Crystal nodes (strategic evidence, counted for Strategy_Pattern),
   apart over the captured experiences (``PENDING``: the best matches, a seat kept for what no
   pattern holds yet), and apart over the conversation turns (``TURNS``, counted for
   Conversation_Memory), with the sender's own latest turns on the topic;
2. ``seeds`` (pure): a vector candidate is relevant from cosine ``MIN_COSINE`` up, a full-text
   candidate when its score is at least ``TEXT_FLOOR`` of the best full-text score;
3. one named query (``ruminate/get_coverage``) returns the whole map: per type, its seeds, the
   seeds' neighbours and its best similarity, plus every energised node for the V2 signals.
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from graphmind.prompts._models import NODE_TYPES, NodeType
from graphmind.recall import Candidates, Recaller
from graphmind.ruminate.gaps import EnergisedNode, GapSignals, GapWeights, signals
from graphmind.ruminate.relevance import MIN_SHARED, specific, topic_terms_of
from graphmind.store import GraphStore
from graphmind.text import stems

T = TypeVar("T")

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
TURNS = ("Turn",)
"""Conversation turns (an imported ``conversation`` line, ``Mind.add_conversation``) count for
Conversation_Memory: what was said is conversation history. They are searched apart (at most
``TURN_SEEDS``), so that a long conversation never crowds the other types out of the searches."""
SEARCH_LABELS = (*NODE_TYPES, *CONSOLIDATED)
PENDING_SEEDS = 5
WAITING_SEATS = 1
"""Of the ``PENDING_SEEDS`` experience seats, the best matches take all but this many whether a
pattern holds them or not; this many go to the best that no pattern holds yet (what the patterns
miss, for the gap-led exploration), when one matches. Before, every waiting experience came
first, and a dreamed mind's five weakest waiting matches kept out the entry recall ranks first
(``bench/ruminate_capture_quality.py``)."""
TURN_SEEDS = 3
"""Turns matched from the search, and apart from it the sender's own latest turns on the topic."""
SENDER_TURNS = 20
"""How many of the sender's latest turns are read to find those on the topic."""
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
    return list(dict.fromkeys(alternate(vector, text)))[:limit]


def alternate(first: Sequence[T], second: Sequence[T]) -> list[T]:
    """The items of two lists, each best first, taken from the two in turn (the first's first),
    then the rest of the longer."""
    interleaved = [item for pair in zip(first, second) for item in pair]
    return interleaved + list(first[len(second) :] if len(first) > len(second) else second[len(first) :])


def cosine(index_score: float) -> float:
    """The cosine similarity behind a vector index score ((1 + cosine) / 2)."""
    return 2.0 * index_score - 1.0


def node_type_of(label: str) -> str:
    """The node type a label counts for: consolidated knowledge and captured experiences for
    Strategy_Pattern, conversation turns for Conversation_Memory, any other label for itself."""
    return "Strategy_Pattern" if label in EVIDENCE else "Conversation_Memory" if label in TURNS else label


def sender_turns(store: GraphStore, mind: str, stimulus: str, sender: str | None, limit: int = TURN_SEEDS) -> list[str]:
    """The uids of the sender's latest turns that relevance could keep for ``stimulus``
    (``on_the_topic``), best first."""
    if not sender:
        return []
    rows = store.read("ruminate/find_sender_turns", mind=mind, sender=sender, limit=SENDER_TURNS)
    return [f"{mind}:{i}" for i in on_the_topic(rows, stimulus, sender)[:limit]]


def on_the_topic(rows: list[dict[str, Any]], stimulus: str, sender: str | None = None) -> list[str]:
    """The ids of ``rows`` (turns, latest first) that rumination's relevance could keep: sharing
    with the stimulus a stem few of them hold (``relevance.specific``) or ``MIN_SHARED`` stems,
    names of the sender aside; a specific stem first, then the most shared, then the latest (pure)."""
    wanted = topic_terms_of(stimulus) - (stems(sender) if sender else set())
    shared = [topic_terms_of(str(r["props"].get("text") or "")) & wanted for r in rows]
    rare = specific(shared)
    needed = max(1, min(MIN_SHARED, len(wanted)))
    ranked = sorted(range(len(rows)), key=lambda n: (not shared[n] & rare, -len(shared[n]), n))
    return [rows[n]["id"] for n in ranked if shared[n] & rare or len(shared[n]) >= needed]


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
    turns = recaller.search(mind, query, DEPTH, TURNS, phrases=phrases(stimulus), max_fetch=PENDING_FETCH)
    said = seeds(turns, min_cosine=min_cosine, limit=TURN_SEEDS) + sender_turns(store, mind, stimulus, sender)
    row = store.read(
        "ruminate/get_coverage",
        mind=mind,
        seeds=list(dict.fromkeys(seeds(found, min_cosine=min_cosine) + said)),
        pending=seeds(pending, min_cosine=min_cosine, limit=DEPTH),
        pending_limit=PENDING_SEEDS,
        waiting_seats=min(WAITING_SEATS, PENDING_SEEDS),
        candidates=[{"uid": c.uid, "score": c.score} for c in [*found.vector, *pending.vector, *turns.vector]],
        labels=[*SEARCH_LABELS, *PENDING, *TURNS],
        neighbours=NEIGHBOURS,
    )[0]
    embedding = sum(c.timings_ms.get("embed_query", 0.0) for c in (found, pending, turns))
    graph_ms = (time.perf_counter() - clock) * 1000 - embedding
    return dataclasses.replace(coverage_from_row(row, weights), graph_ms=round(graph_ms, 2))


def coverage_from_row(row: dict[str, Any], weights: GapWeights = GapWeights()) -> Coverage:
    """The Coverage of a ``ruminate/get_coverage`` row; consolidated labels fold into
    Strategy_Pattern."""
    types = {t: TypeCoverage(t) for t in NODE_TYPES}
    for entry in row["coverage"]:
        target = cast(NodeType, node_type_of(entry["label"]))
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
