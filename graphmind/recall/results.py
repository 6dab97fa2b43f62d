"""What recall returns: hits with their reasons, the result, and the warnings it may raise."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graphmind.models import GraphNode
from graphmind.recall._logic import Ranked
from graphmind.store.records import shown_properties

REPLACES = "replaces "
"""How a hit's ``graph`` says which outdated hit it stands in place of."""


@dataclass(frozen=True)
class RecallHit:
    """One recalled memory, its fused score and why it matched."""

    node: GraphNode
    label: str
    score: float
    vector_rank: int | None = None
    similarity: float | None = None
    text_rank: int | None = None
    text_score: float | None = None
    matched_terms: list[str] = field(default_factory=list)
    graph: list[str] = field(default_factory=list)
    """For a conversation turn: the paths that brought it in (hybrid rank, NEXT, IN_SESSION, ...)."""
    identifiers: list[str] = field(default_factory=list)
    """The recall text's identifiers this memory names; it ranks before those naming fewer
    (identifiers.py), whatever the scores."""
    outdated: str | None = None
    """Why the memory no longer (or not yet) holds ("not valid since 2026-05-01"): it ranks after
    every valid hit, whatever the scores (validity.py)."""

    @property
    def id(self) -> str:
        return self.node.id

    @property
    def replaced(self) -> str | None:
        """The id of the outdated hit this memory holds in place of (``hits.with_replacements``)."""
        return next((p.removeprefix(REPLACES) for p in self.graph if p.startswith(REPLACES)), None)

    @property
    def text(self) -> str | None:
        return self.node.derived_text()

    def why(self) -> dict[str, Any]:
        """Which searches found this memory, at which rank, and with which query words; the
        query's identifiers it names and, for a memory no longer valid, why (``outdated``)."""
        reasons: dict[str, Any] = {}
        if self.vector_rank is not None:
            reasons["vector"] = {"rank": self.vector_rank, "similarity": _rounded(self.similarity)}
        if self.text_rank is not None:
            reasons["text"] = {"rank": self.text_rank, "score": _rounded(self.text_score), "terms": self.matched_terms}
        if self.graph:
            reasons["graph"] = list(self.graph)
        if self.identifiers:
            reasons["identifiers"] = list(self.identifiers)
        if self.outdated:
            reasons["outdated"] = self.outdated
        return reasons

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "score": round(self.score, 6),
            "text": self.text,
            "why": self.why(),
            "properties": shown_properties(self.node),
        }


@dataclass(frozen=True)
class RecallResult:
    """What ``Mind.recall`` returns: the hits, best first, and what recall did on the way."""

    mind: str
    query: str
    model_id: str
    hits: list[RecallHit]
    embedded: int = 0
    reembedded: int = 0
    """Of ``embedded``, memories that another model had embedded (see ReembeddedWarning)."""
    stale: int = 0
    vector_search: str = "none"
    """Where the vector side searched: "memory" (the in-memory copy of the mind's vectors),
    "exact" (every vector of the mind, in Cypher) or "index" (the vector index)."""
    timings_ms: dict[str, float] = field(default_factory=dict)
    """Milliseconds per phase: pending (embedding pass), embed_query, vector, text_wait (what the
    full-text search, run alongside, still took after the vector search), hits; and text, the
    full-text search's own time."""
    unnamed: list[str] = field(default_factory=list)
    """The query's identifiers no memory recall found names ("S-4119" asked, only "S-4110"
    found): the hits only resemble them (identifiers.py)."""
    off_topic: int = 0
    """Hits left out as no more alike to the query than unrelated texts (``Mind.ask``'s recall
    only: ``dream.knowledge.about_only``); plain recall ranks and keeps them all."""
    unheard: list[str] = field(default_factory=list)
    """The query's names no memory of the mind holds (``Mind.ask``'s recall only)."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "mind": self.mind,
            "query": self.query,
            "unnamed_identifiers": list(self.unnamed),
            "model_id": self.model_id,
            "embedded": self.embedded,
            "reembedded": self.reembedded,
            "stale": self.stale,
            "vector_search": self.vector_search,
            "timings_ms": self.timings_ms,
            "hits": [hit.as_dict() for hit in self.hits],
        }


@dataclass(frozen=True)
class Candidates:
    """What ``Recaller.search`` found: each search's ranked candidates, best first (vector
    scores on the index's (1 + cosine) / 2 scale), and what the search did on the way."""

    vector: list[Ranked]
    text: list[Ranked]
    terms: list[str]
    embedded: int = 0
    reembedded: int = 0
    stale: int = 0
    vector_search: str = "none"
    timings_ms: dict[str, float] = field(default_factory=dict)


class ReembeddedWarning(UserWarning):
    """Memories embedded by another model (GRAPHMIND_EMBEDDER=hashing as a fallback, an older
    model) were found by a search and embedded again with the current model."""


class StaleEmbeddingsWarning(UserWarning):
    """Some of the mind's memories were embedded by another model and were left out of the
    vector search; ``graphmind embed --mind M`` re-embeds them."""


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
