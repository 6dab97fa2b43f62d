"""What recall remembers between calls: query embeddings, and each mind's vector state.

``QueryVectors``: the embeddings of the last queries, by model and text (an agent asks the same
questions again; a repeated query costs no forward pass). ``VectorStates``: each mind's vector
stamp and whether memories wait for the embedding pass (cypher/recall/get_vector_state), read
once and reused while nothing but hit counts was written through the store since
(``GraphStore.generation``) and for at most ``ttl_s``: what another process writes is seen
within that time (a memory it captured is embedded by the first recall after it).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np

from graphmind.embed import Embedder
from graphmind.recall.vector_cache import one_blas_thread
from graphmind.store import GraphStore

QUERY_VECTORS = 256
"""Query embeddings kept by default (GRAPHMIND_RECALL_QUERY_CACHE; 384 floats each for MiniLM)."""
STATE_TTL_S = 1.0
"""How long a mind's vector state is trusted without reading it again (writes of other processes)."""


class QueryVectors:
    """The embeddings of the last ``size`` queries, least recently used dropped first."""

    def __init__(self, embedder: Embedder, size: int = QUERY_VECTORS):
        self._embedder = embedder
        self._size = size
        self._vectors: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def embed(self, text: str) -> np.ndarray:
        """``text``'s embedding (read-only), computed once while it stays among the last queries."""
        key = (self._embedder.model_id, text)
        with self._lock:
            vector = self._vectors.get(key)
            if vector is not None:
                self._vectors.move_to_end(key)
                return vector
        with one_blas_thread():
            vector = self._embedder.embed([text])[0]
        vector.setflags(write=False)
        if not self._size:
            return vector
        with self._lock:
            self._vectors[key] = vector
            while len(self._vectors) > self._size:
                self._vectors.popitem(last=False)
        return vector


class VectorStates:
    """Each mind's vector state as last read, while still trusted (see the module doc)."""

    def __init__(
        self, store: GraphStore, *, ttl_s: float = STATE_TTL_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._store = store
        self._ttl_s = ttl_s
        self._clock = clock
        self._known: dict[str, tuple[int, float, dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def get(self, mind: str) -> dict[str, Any]:
        """``{stamp, pending}`` of ``mind``: the last one read, or read now."""
        # the generation is taken before the read: a write ending during the read makes it stale
        generation, now = self._store.generation, self._clock()
        with self._lock:
            known = self._known.get(mind)
        if known is not None and known[0] == generation and now - known[1] < self._ttl_s:
            return known[2]
        state = self._store.read("recall/get_vector_state", mind=mind)[0]
        with self._lock:
            self._known[mind] = (generation, now, state)
        return state


UNSCOPED_SHARE = 0.5
"""The share of the database's memories from which a mind's full-text query leaves the mind out."""
TOTAL_TTL_S = 60.0


class TextScopes:
    """Whether a mind's full-text query names the mind (``mind:"m" AND (...)``).

    Naming it keeps other minds' memories out of the candidates, but Lucene then visits every
    memory of the mind: a million-memory mind's query took 33 ms (p95 133-156 ms) with the
    clause and 3 ms (p95 5-7 ms) without. So a mind holding at least UNSCOPED_SHARE of the
    database's memories is searched without it, and recall keeps its own memories (find_by_text
    checks the mind, over-fetching as for any mind). The mind's size is what its last vector
    search saw; the database's total is read from Neo4j's count store, at most once a minute.
    """

    def __init__(self, store: GraphStore):
        self._store = store
        self._unscoped: dict[str, bool] = {}
        self._total: tuple[float, int] | None = None

    def scoped(self, mind: str) -> bool:
        return not self._unscoped.get(mind, False)

    def note(self, mind: str, memories: int) -> None:
        """Record the number of embedded memories the mind's vector search saw."""
        now = time.monotonic()
        if self._total is None or now - self._total[0] > TOTAL_TTL_S:
            self._total = (now, int(self._store.read("recall/count_memories")[0]["memories"]))
        self._unscoped[mind] = self._total[1] > 0 and memories >= UNSCOPED_SHARE * self._total[1]
