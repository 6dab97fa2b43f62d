"""Hybrid recall: vector and full-text search over one mind, fused by reciprocal rank."""

from __future__ import annotations

import datetime as dt
import logging
import warnings
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

import numpy as np

from graphmind.embed import Embedder
from graphmind.errors import GraphmindError
from graphmind.recall._logic import (
    Fused,
    Ranked,
    capitalised,
    check_k,
    check_labels,
    check_query_text,
    fuse,
    lucene_query,
    next_fetch,
    overfetch_factor,
    query_terms,
    text_fields,
)
from graphmind.recall.caches import QUERY_VECTORS, QueryVectors, TextScopes, VectorStates
from graphmind.recall.embed_pass import EmbeddingPass, EmbedReport
from graphmind.recall.hit_counter import count_hits, flush_hits
from graphmind.recall.hits import read_hits, valid_first, with_replacements
from graphmind.recall.identifiers import identifiers
from graphmind.recall.partition import PARTITION_MIN, Partition
from graphmind.recall.results import Candidates as Candidates
from graphmind.recall.results import RecallHit as RecallHit
from graphmind.recall.results import RecallResult as RecallResult
from graphmind.recall.results import ReembeddedWarning as ReembeddedWarning
from graphmind.recall.results import StaleEmbeddingsWarning as StaleEmbeddingsWarning
from graphmind.recall.results import _rounded as _rounded
from graphmind.recall.turn_expand import SEEDS
from graphmind.recall.turn_graph import read_context, rerank_turns
from graphmind.recall.unheard import unheard_words
from graphmind.recall.validity import parse_as_of, visible_at
from graphmind.recall.vector_cache import VectorCache
from graphmind.recall.vectors import VectorWrite
from graphmind.store import GraphStore
from graphmind.timing import Stopwatch

log = logging.getLogger(__name__)

FETCH_CAP = 10_000
"""The most candidates recall asks one index for while looking for a mind's own nodes."""
LABELS_WIDER = 8
"""A search for one label starts with this many times the unfiltered over-fetch (for n
labels, 8 // n times): the eight mind-protocol types each hold about an eighth of a mind."""
AS_OF_WIDER = 3
"""Recall as of a date searches this many times deeper: memories made later are dropped after the search."""
EXACT_LIMIT = 2_000
"""Without an in-memory copy of its vectors (see vector_cache.py), a mind of up to this many
embedded memories is searched exactly in Cypher (cosine against each of its memories) instead of
through the vector index, which spans every mind: for a small mind among large ones,
over-fetching from the index until enough of its own nodes appear costs more."""


class Recaller:
    """Recall over the vector and full-text indexes, scoped to one mind.

    The vector side searches an in-memory copy of the mind's vectors when one is current
    (vector_cache.py). Otherwise, and always on the full-text side, it searches an index that
    spans every mind of the database: each search over-fetches and keeps the mind's own nodes,
    asking for more when too few were its own. The mind's share of what an index returns is
    remembered and sizes the next over-fetch. A mind with few embedded memories is searched
    exactly in Cypher instead (see EXACT_LIMIT).
    """

    def __init__(
        self,
        store: GraphStore,
        embedder: Embedder,
        *,
        overfetch: int = 10,
        exact_limit: int = EXACT_LIMIT,
        cache_bytes: int = 0,
        query_cache: int = QUERY_VECTORS,
        partition_min: int = PARTITION_MIN,
    ):
        self._store = store
        self._embedder = embedder
        self._overfetch: dict[tuple[str, str, tuple[str, ...]], int] = {}
        self._initial_overfetch = overfetch
        self._exact_limit = exact_limit
        self._counts: dict[str, tuple[str | None, dict[str, int]]] = {}
        self._reembedded_at: dict[str, str | None] = {}
        self._turns: dict[str, tuple[dt.date | None, frozenset[str]]] = {}
        """Each mind's latest session date and the speakers turn recalls saw (turn_graph.py)."""
        self._executor: ThreadPoolExecutor | None = None
        self._cache = VectorCache(store, embedder.dimensions, cache_bytes, partition_min)
        self._states = VectorStates(store)
        self._queries = QueryVectors(embedder, query_cache)
        self._scopes = TextScopes(store)

    def embed(self, mind: str, *, full: bool = False) -> EmbedReport:
        """Run the embedding pass over ``mind``, keeping this recaller's copy of it current."""
        return EmbeddingPass(self._store, self._embedder, on_write=self._on_write(mind)).run(mind, full=full)

    def query_vector(self, text: str) -> np.ndarray:
        """``text`` embedded as recall embeds a query (kept among the last queries' vectors)."""
        return self._queries.embed(text)

    def unheard(self, mind: str, words: Iterable[str]) -> set[str]:
        """The plain ``words`` no memory of ``mind`` holds (``unheard.unheard_words``)."""
        return unheard_words(self._store, mind, words)

    def load_vectors(self, mind: str) -> int:
        """Load ``mind``'s vectors into memory now rather than on its first recall; returns how
        many are held (0 when the cache is off or the mind does not fit its budget)."""
        copy = self._cache.load(mind, self._embedder.model_id)
        return 0 if copy is None else copy.size

    def partition_of(self, mind: str) -> Partition | None:
        """The inverted lists the in-memory copy of ``mind`` is searched through, if any
        (partition.py: minds of GRAPHMIND_RECALL_PARTITION_MIN vectors or more)."""
        return self._cache.partition_of(mind)

    def recall(
        self,
        mind: str,
        text: str,
        k: int = 10,
        labels: Sequence[str] | None = None,
        *,
        as_of: datetime | str | None = None,
        count: bool = True,
    ) -> RecallResult:
        """The ``k`` memories of ``mind`` that best match ``text``; counts a hit on each, behind
        the call (hit_counter.py; ``Mind.flush`` waits for the count).

        Without ``labels``, the engines' working nodes (RECALLED_LABELS) are left out. A locus
        asked for by label never comes back beside the memory it stands for. ``as_of`` (a date)
        sees what held then (validity.py); without it, valid facts come first. ``count``
        False leaves the hits to the caller (``hit_counter.count_hits``)."""
        text = check_query_text(text)
        check_k(k)
        wanted = check_labels(labels)
        when = parse_as_of(as_of)
        depth = max(k, 10, SEEDS if "Turn" in wanted else 0) * (AS_OF_WIDER if when else 1)
        # conversation turns: what the question brings in whatever its seeds is read meanwhile,
        # unless memories wait for the embedding pass (the search first writes them to the index)
        latest, speakers = self._turns.get(mind, (None, frozenset()))
        context = (
            self._pool().submit(read_context, self._store, mind, text, latest, speakers)
            if "Turn" in wanted and not self._states.get(mind)["pending"]
            else None
        )
        named = identifiers(text)  # sample ids, tickets, versions: matched whole, and first
        found = self.search(mind, text, depth, wanted, phrases=named)
        laps = Stopwatch(scale=1000, digits=2)
        fused = fuse(found.vector, found.text, depth)
        if "Locus" in wanted and len(wanted) > 1:
            fused = self._without_locus_copies(mind, fused)
        paths: dict[str, list[str]] = {}
        if "Turn" in wanted:  # conversation turns: expand through the graph and rerank (turn_graph.py)
            early = context.result() if context else None
            # all of depth: a valid hit past k may stand in for an outdated one (read_hits' spare)
            reranked = rerank_turns(self._store, mind, text, fused, depth, today=latest, context=early)
            fused, paths = reranked.fused, reranked.paths
            self._turns[mind] = (reranked.latest, speakers | reranked.speakers)
            laps.lap("graph")
        if when is not None:
            fused = self._visible_at(mind, fused, when)
        read, unnamed = read_hits(self._store, mind, fused, found.terms, paths, k=k, named=named, count=False)
        hits = valid_first(read, when)
        if hits and hits[-1].outdated and len(fused) > k:  # valid hits past k take outdated ones' places
            first = {h.id for h in hits}
            read, unnamed = read_hits(
                self._store, mind, fused, found.terms, paths, k=k, named=named, count=False, spare=len(fused) - k
            )
            hits = [h for h in valid_first(read, when) if h.outdated is None or h.id in first]  # no later outdated
        if when is None:  # as of a date, what replaced a fact may not have been written yet
            hits = with_replacements(self._store, mind, hits, k, wanted)
        hits = hits[:k]
        if count:
            count_hits(self._store, mind, [f"{mind}:{h.id}" for h in hits])
        laps.lap("hits")
        sides = (len(found.vector), len(found.text))
        log.debug("recall in %s: %d hits of %d asked (%d by vector, %d by text)", mind, len(hits), k, *sides)
        if found.stale:
            warnings.warn(
                StaleEmbeddingsWarning(
                    f"{found.stale} memories of mind {mind!r} were embedded by another model than "
                    f"{self._embedder.model_id} and were skipped; run 'graphmind embed --mind {mind}'"
                ),
                stacklevel=3,
            )
        return RecallResult(
            mind=mind,
            query=text,
            model_id=self._embedder.model_id,
            hits=hits,
            embedded=found.embedded,
            reembedded=found.reembedded,
            stale=found.stale,
            vector_search=found.vector_search,
            timings_ms={**found.timings_ms, **laps.laps},
            unnamed=unnamed,
        )

    def search(
        self,
        mind: str,
        text: str,
        depth: int,
        labels: Sequence[str] | None = None,
        *,
        phrases: Sequence[str] = (),
        max_fetch: int = FETCH_CAP,
    ) -> Candidates:
        """The best ``depth`` candidates of each search, unfused, without counting hits: what
        recall fuses, and what rumination's gap detection starts from. ``phrases`` (file names,
        identifiers) are matched whole by the full-text search, besides the words of ``text``.
        ``max_fetch`` caps what an index spanning every mind (and every label) is asked for: a
        caller that only wants strong matches of one label lowers it, and gets fewer than
        ``depth`` when the label's memories are not among the index's best."""
        text = check_query_text(text)
        wanted_labels = check_labels(labels)
        laps = Stopwatch(scale=1000, digits=2)
        state = self._states.get(mind)
        embedded = 0
        if state["pending"]:
            embedded = self.embed(mind).embedded
            self._store.autocommit("admin/await_text_index")
            state = self._states.get(mind)
        laps.lap("pending")
        terms = query_terms(text)
        # The full-text search needs no embedding: it runs on the pool's thread while this one
        # embeds the query and searches the vector index (the driver is thread-safe).
        text_search = self._pool().submit(
            self._text_search,
            mind,
            lucene_query(
                terms,
                mind if self._scopes.scoped(mind) else None,
                phrases,
                text_fields(wanted_labels),
                possessive=capitalised(text),
            ),
            wanted_labels,
            depth,
            max_fetch,
        )
        embedding = self._queries.embed(text)
        laps.lap("embed_query")
        vector, stale, source = self._vector_search(mind, state["stamp"], embedding, wanted_labels, depth, max_fetch)
        reembedded = 0
        # another model embedded some memories (a fallback, a model change): embed them again,
        # once per state of the mind (a memory without text keeps its old vector and stays stale)
        if stale and self._reembedded_at.get(mind) != state["stamp"]:
            reembedded = self.embed(mind, full=True).embedded
            state = self._states.get(mind)
            self._reembedded_at[mind] = state["stamp"]
            vector, stale, source = self._vector_search(
                mind, state["stamp"], embedding, wanted_labels, depth, max_fetch
            )
            if reembedded:
                warnings.warn(
                    ReembeddedWarning(
                        f"{reembedded} memories of mind {mind!r} had been embedded by another model "
                        f"and were embedded again with {self._embedder.model_id}"
                    ),
                    stacklevel=3,
                )
        laps.lap("vector")
        ranked_text, text_ms = text_search.result()
        laps.lap("text_wait")
        laps.laps["text"] = text_ms
        return Candidates(
            vector=vector,
            text=ranked_text,
            terms=terms,
            embedded=embedded + reembedded,
            reembedded=reembedded,
            stale=stale,
            vector_search=source,
            timings_ms=laps.laps,
        )

    def _vector_search(
        self,
        mind: str,
        stamp: str | None,
        embedding: np.ndarray,
        labels: list[str] | None,
        depth: int,
        max_fetch: int = FETCH_CAP,
    ) -> tuple[list[Ranked], int, str]:
        model_id = self._embedder.model_id
        copy = self._cache.lookup(mind, stamp, model_id)
        if copy is not None:
            self._scopes.note(mind, copy.size + copy.stale)
            return self._cache.search(copy, embedding, labels, depth), copy.stale, "memory"
        counts = self._embedded_counts(mind, stamp)
        self._scopes.note(mind, counts["current"] + counts["stale"])
        params = {"embedding": embedding.tolist(), "model_id": model_id, "labels": labels}
        if counts["current"] <= self._exact_limit:
            row = self._store.read("recall/find_by_vector_exact", mind=mind, limit=depth, **params)[0]
            stale, source = counts["stale"], "exact"
        else:
            row = self._search(mind, "recall/find_by_vector", depth, max_fetch, **params)
            stale, source = row["stale"], "index"
        return [Ranked(c["uid"], c["score"]) for c in row["kept"]], stale, source

    def _embedded_counts(self, mind: str, stamp: str | None) -> dict[str, int]:
        """How many of the mind's memories carry a current / stale embedding (kept per stamp)."""
        known = self._counts.get(mind)
        if known is None or known[0] != stamp:
            counts = self._store.read("recall/count_embedded", mind=mind, model_id=self._embedder.model_id)[0]
            self._counts[mind] = known = (stamp, counts)
        return known[1]

    def _on_write(self, mind: str) -> Callable[[VectorWrite], None]:
        model_id = self._embedder.model_id

        def applied(write: VectorWrite) -> None:
            self._cache.apply(mind, write, model_id)

        return applied

    def _text_search(
        self, mind: str, query: str | None, labels: list[str] | None, depth: int, max_fetch: int = FETCH_CAP
    ) -> tuple[list[Ranked], float]:
        """The full-text candidates, and how many milliseconds the search took."""
        clock = Stopwatch(scale=1000, digits=2)
        ranked = []
        if query is not None:
            row = self._search(mind, "recall/find_by_text", depth, max_fetch, query=query, labels=labels)
            ranked = [Ranked(c["uid"], c["score"]) for c in row["kept"]]
        clock.lap("text")
        return ranked, clock.laps["text"]

    def _pool(self) -> ThreadPoolExecutor:
        if self._executor is None:
            # the full-text search, and a turn recall's context read (turn_graph.read_context)
            self._executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="graphmind-recall")
        return self._executor

    def close(self) -> None:
        """Write the hits still queued, stop the recaller's worker threads and drop its vectors
        (the owning Mind calls this on close)."""
        try:
            flush_hits(self._store)
        except GraphmindError as exc:  # the writer retries them until the process exits
            log.error("the hits of recalls are not counted yet: %s", exc)
        self._cache.close()
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None

    def _search(self, mind: str, name: str, depth: int, cap: int, **params: Any) -> dict[str, Any]:
        """Over-fetch from an index spanning every mind until ``depth`` of the mind's own appear
        (or ``cap`` candidates were asked for).

        The factor starts at the recaller's initial over-fetch and then follows the share of the
        mind's nodes (of the asked labels) the index returned last time, per mind, index and
        labels, so a large mind asks for few extra candidates and a small one for many, at once.
        """
        labels = tuple(params.get("labels") or ())
        key = (mind, name, labels)
        # a search for a few labels starts wider: their share of the mind is unknown yet
        wider = max(1, LABELS_WIDER // len(labels)) if labels else 1
        factor = self._overfetch.get(key, self._initial_overfetch * wider)
        fetch = min(depth * factor, cap)
        while True:
            row = self._store.read(name, mind=mind, fetch=fetch, limit=depth, **params)[0]
            more = next_fetch(fetch, row["fetched"], row["own"], depth, cap)
            if more is None:
                if row["fetched"] == fetch:  # a full answer tells the mind's share
                    self._overfetch[key] = overfetch_factor(row["fetched"], row["own"])
                return row
            fetch = more

    def _without_locus_copies(self, mind: str, fused: list[Fused]) -> list[Fused]:
        """``fused`` less the loci that stand for a memory also in ``fused``."""
        if len(fused) < 2:
            return fused
        rows = self._store.read("recall/find_locus_copies", mind=mind, uids=[f.uid for f in fused])
        copies = {row["uid"] for row in rows}
        return [f for f in fused if f.uid not in copies]

    def _visible_at(self, mind: str, fused: list[Fused], when: datetime) -> list[Fused]:
        """``fused`` less the memories that did not exist, or did not hold, at ``when``."""
        if not fused:
            return fused
        rows = self._store.read("recall/list_validity", mind=mind, uids=[f.uid for f in fused])
        seen = {row["uid"] for row in rows if visible_at(row, when)}
        return [f for f in fused if f.uid in seen]
