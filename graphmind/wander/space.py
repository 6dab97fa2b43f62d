"""Idea space on the graph: the loci a walk can visit and the adjacencies it can find.

Loci are of two kinds:
- MEMORY loci stand for the mind's own memories, every memory label (``RECALLED_LABELS``:
  experiences, patterns, abstractions, topic entries, the mind-protocol types), one each,
  ``(:Locus)-[:REFERS_TO]->(memory)``, shared by every session of the mind; never for wander's
  working nodes nor crystals (a crystal is what a walk found, not a place to walk to). ``sync``
  keeps them in step with the memory: a concept whose text changed is embedded again, and a
  locus whose memory left idea space (pruned, absorbed, a crystal) leaves the hot tier.
- Session loci: the seed, injected concepts and the concepts the walk generates (a dwelling's
  POSSIBILITY), ``session_id`` set, ``REFERS_TO`` the memories they came from.

A memory locus's concept, domains and abstraction level (0..1) come from its memory:
- Pattern and Abstraction: the name; TopicEntry: "topic: text"; others: their text fields;
  at most 200 characters.
- Domains: for a pattern, the level-2 categories above it; a level-2 category is its own
  domain, higher ones take the categories they subsume; an experience the categories around
  it, else "experience"; a topic entry's topic; other memories their type in words ("failed
  attempt").
- Level: experiences 0, patterns 0.25, abstractions level/4, others 0.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import numpy as np

from graphmind.embed import Embedder
from graphmind.models import RECALLED_LABELS
from graphmind.recall._logic import stored_text, text_hash
from graphmind.store import GraphStore
from graphmind.text import trim

BAND_LIMIT, GRAPH_LIMIT, MEMORIES_PER_LOCUS = 8, 3, 4
EXACT_LIMIT, INDEX_FETCH = 2000, 1000
"""Up to EXACT_LIMIT hot loci in the mind, the band is an exact scan (deterministic); beyond,
the vector index is asked for the INDEX_FETCH nearest memories of every mind."""


@dataclass(frozen=True)
class LocusView:
    """A locus as the walk sees it."""

    id: str
    concept: str
    domains: tuple[str, ...]
    vector: np.ndarray
    abstraction_level: float | None = None
    interestingness: float | None = None
    uncertainty: float | None = None
    source_type: str | None = None
    role: str | None = None

    def item(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "concept": self.concept,
            "domains": list(self.domains),
            "abstraction_level": self.abstraction_level,
        }


@dataclass(frozen=True)
class Candidate:
    locus: LocusView
    strategy: str
    cosine: float
    via: str | None = None


def locus_id_for(memory_id: str) -> str:
    return f"locus-{memory_id}"


def concept_locus_id(session_id: str, concept: str) -> str:
    """The id of a session locus: equal concepts in one session are one locus."""
    key = " ".join(concept.lower().split())
    return f"locus-{hashlib.sha256(f'{session_id}|{key}'.encode()).hexdigest()[:12]}"


def memory_concept(label: str, props: Mapping[str, Any]) -> str:
    if label in ("Pattern", "Abstraction"):
        text = props.get("name") or props.get("description") or ""
    elif label == "TopicEntry":
        text = f"{props.get('topic', '')}: {props.get('text', '')}"
    else:
        text = stored_text(label, props) or ""
    return trim(" ".join(str(text).split()), 200)


def memory_domains(label: str, props: Mapping[str, Any], categories: Sequence[str]) -> list[str]:
    if label == "Abstraction" and props.get("level") == 2 and props.get("name"):
        return [str(props["name"])]
    if label in ("Pattern", "Abstraction"):
        return sorted(categories) or ["patterns"]
    if label == "Experience":
        return sorted(categories) or ["experience"]
    if label == "TopicEntry" and props.get("topic"):
        return [str(props["topic"])]
    return [label.replace("_", " ").lower()]


def memory_level(label: str, props: Mapping[str, Any]) -> float:
    if label == "Abstraction":
        return min(1.0, (props.get("level") or 2) / 4)
    return {"Pattern": 0.25}.get(label, 0.0)


def memory_locus_rows(mind: str, sources: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Rows (without embeddings) for the memory loci that are new or whose concept changed."""
    rows = []
    for src in sources:
        concept = memory_concept(src["label"], src["props"])
        if not concept:
            continue
        digest = text_hash(concept)
        if src["locus_id"] is not None and src["locus_hash"] == digest and src.get("locus_tier") in (None, "hot"):
            continue
        locus_id = locus_id_for(src["id"])
        rows.append(
            {
                "uid": f"{mind}:{locus_id}",
                "id": locus_id,
                "text_hash": digest,
                "refresh": True,
                "refers_to": [f"{mind}:{src['id']}"],
                "props": {
                    "concept": concept,
                    "source_type": "MEMORY",
                    "tier": "hot",
                    "role": src["label"],
                    "domains": memory_domains(src["label"], src["props"], src["categories"]),
                    "abstraction_level": memory_level(src["label"], src["props"]),
                },
            }
        )
    return rows


class IdeaSpace:
    """Reads and writes of one mind's idea space."""

    def __init__(self, store: GraphStore, embedder: Embedder, mind: str):
        self._store, self._embedder, self._mind = store, embedder, mind
        self._memories: dict[str, list[dict[str, Any]]] = {}
        self._loci: int | None = None  # hot loci of the mind, counted at sync
        self.memory_count: int | None = None  # the mind's memories that stand in idea space, at sync

    @property
    def mind(self) -> str:
        return self._mind

    def nearest(self, session_id: str, vector: np.ndarray, at_least: float = 0.3) -> tuple[LocusView, list[str]] | None:
        """The locus of the session's idea space closest to ``vector``, if its cosine ≥ ``at_least``."""
        rows = self._store.read(
            "wander/find_band_candidates",
            mind=self._mind,
            session_id=session_id,
            current="",
            embedding=[float(x) for x in vector],
            low=at_least,
            high=1.0,
            limit=1,
        )
        return self.get(rows[0]["id"]) if rows else None

    def add_session_locus(self, session_id: str, concept: str, source_type: str, *, grounded: bool) -> str:
        """Write a session locus for ``concept`` (embedded once) with the domains and role of the
        nearest locus of idea space (cosine ≥ 0.3); ``grounded`` (the seed) also takes its
        abstraction level and refers to its memories. Returns the locus id."""
        locus_id = concept_locus_id(session_id, concept)
        vector = self.embed([concept])[0]
        near = self.nearest(session_id, vector)
        props: dict[str, Any] = {
            "concept": concept,
            "session_id": session_id,
            "tier": "hot",
            "source_type": source_type,
            "domains": list(near[0].domains) if near else [],
            "role": near[0].role if near else None,
        }
        if grounded:
            props["abstraction_level"] = near[0].abstraction_level if near else None
        refers = [f"{self._mind}:{m}" for m in near[1]] if grounded and near else []
        self.write_loci(
            [
                {
                    "uid": f"{self._mind}:{locus_id}",
                    "id": locus_id,
                    "props": props,
                    "embedding": [float(x) for x in vector],
                    "refers_to": refers,
                }
            ]
        )
        return locus_id

    def sync(self) -> int:
        """Create or refresh the mind's MEMORY loci; how many were written."""
        self._memories.clear()
        self._loci = None
        labels = list(RECALLED_LABELS)
        sources = self._store.read("wander/list_memory_sources", mind=self._mind, labels=labels)
        self.memory_count = len(sources)
        rows = memory_locus_rows(self._mind, sources)
        if rows:
            self.write_loci(rows)
        self._store.write("wander/mark_stale_memory_loci", mind=self._mind, labels=labels)
        return len(rows)

    def with_embeddings(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``rows`` with the embedding of each concept (rows that carry one keep it)."""
        todo = [r for r in rows if r.get("embedding") is None]
        if todo:
            vectors = self._embedder.embed([r["props"]["concept"] for r in todo])
            for row, vector in zip(todo, vectors, strict=True):
                row["embedding"] = [round(float(x), 6) for x in vector]
        for row in rows:
            row.setdefault("text_hash", text_hash(row["props"]["concept"]))
            row.setdefault("refers_to", [])
            row.setdefault("refresh", False)
            row["model_id"] = self._embedder.model_id
        return rows

    def write_loci(self, rows: list[dict[str, Any]], run=None) -> None:
        """Embed and write ``rows``; ``run`` is a transaction's ``run`` (default: its own)."""
        (run or self._store.write)("wander/upsert_loci", mind=self._mind, rows=self.with_embeddings(rows))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self._embedder.embed(list(texts)) if texts else np.zeros((0, self._embedder.dimensions))

    def get(self, locus_id: str) -> tuple[LocusView, list[str]] | None:
        rows = self._store.read("wander/get_locus", mind=self._mind, id=locus_id)
        return (view(rows[0]), rows[0]["refers_to"]) if rows else None

    def candidates(
        self, session_id: str, current: LocusView, *, low: float, high: float, pool: Executor
    ) -> list[Candidate]:
        """The four strategies' adjacencies (distance band, bridges, analogies, tensions); the
        two queries run side by side on ``pool``."""
        graph = pool.submit(
            self._store.read,
            "wander/find_graph_candidates",
            mind=self._mind,
            session_id=session_id,
            current=current.id,
            limit=GRAPH_LIMIT,
        )
        band = self._band(session_id, current, low, high)
        rows = [*band, *graph.result()]
        return [Candidate(view(r), r["strategy"], float(r["cosine"]), r["via"]) for r in rows]

    def band(
        self, session_id: str, current: LocusView, low: float, high: float, strategy: str = "distance_band"
    ) -> list[Candidate]:
        """The band's candidates alone, under ``strategy``."""
        return [
            Candidate(view(r), strategy, float(r["cosine"]), None) for r in self._band(session_id, current, low, high)
        ]

    def _band(self, session_id: str, current: LocusView, low: float, high: float) -> list[dict[str, Any]]:
        if self._loci is None:
            self._loci = self._store.read("wander/count_hot_loci", mind=self._mind)[0]["loci"]
        params = {
            "mind": self._mind,
            "session_id": session_id,
            "current": current.id,
            "low": low,
            "high": high,
            "embedding": [float(x) for x in current.vector],
            "limit": BAND_LIMIT,
        }
        if self._loci <= EXACT_LIMIT:
            return self._store.read("wander/find_band_candidates", **params)
        return self._store.read("wander/find_band_candidates_indexed", fetch=INDEX_FETCH, **params)

    def memories(self, locus_ids: Sequence[str]) -> list[dict[str, Any]]:
        """The memories a dwelling at these loci may use: id, label, text (each locus's are read
        once per run: ``sync`` forgets them)."""
        missing = [i for i in dict.fromkeys(locus_ids) if i not in self._memories]
        if missing:
            for i in missing:
                self._memories[i] = []
            for r in self._store.read(
                "wander/find_locus_memories", mind=self._mind, ids=missing, per_locus=MEMORIES_PER_LOCUS
            ):
                text = stored_text(r["label"], r["props"])
                if text:
                    self._memories[r["locus_id"]].append({"id": r["id"], "label": r["label"], "text": trim(text, 600)})
        found = [m for i in dict.fromkeys(locus_ids) for m in self._memories[i]]
        return list({m["id"]: m for m in found}.values())


def view(row: Mapping[str, Any]) -> LocusView:
    props = row["props"]
    return LocusView(
        id=row["id"],
        concept=props.get("concept") or "",
        domains=tuple(props.get("domains") or ()),
        vector=np.asarray(row["embedding"] or [], dtype=np.float32),
        abstraction_level=props.get("abstraction_level"),
        interestingness=props.get("interestingness"),
        uncertainty=props.get("uncertainty"),
        source_type=props.get("source_type"),
        role=props.get("role"),
    )
