"""Recall's in-memory copies of minds' embeddings, kept honest by each mind's vector stamp.

Neo4j 5.26's vector index spans every mind and cannot filter, so recall over a large mind
over-fetches from it; an exact search over the mind's own vectors in memory is faster and
exact. A copy is used only while the mind's vector stamp (schema/006_vector_stamp.cypher),
which the embedding pass renews with every write, still equals the one it was loaded at, so
another process embedding or deleting the mind makes the copy unused within a second (recall
reads the stamp again after any write of this process, and at least once a second: caches.py;
another Mind of this process is seen at once). Writes of the
embedding pass in this process are applied to the copy, so it stays current without a reload.

A copy is loaded in the background when a mind's recall finds none for the second time in
this process (recall meanwhile searches the graph), or at once by ``load``: a one-shot
``graphmind recall`` never pays for a load it would not use. Together they stay within a memory budget
(``GRAPHMIND_RECALL_CACHE_MB``; 0 turns the cache off): the least recently used copies are
dropped first, and a mind that alone exceeds the budget is always searched through the index.
A copy is loaded only with an eighth of its size to spare for the writes that follow, and grows
within the budget; one that outgrows it alone is dropped and not loaded again at that size.

A copy of ``partition_min`` rows or more is searched through inverted lists (partition.py):
built when it is loaded, and again in the background when writes leave too many rows outside
them. Recall meanwhile scans the lists and, exactly, the rows outside them.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import closing
from typing import Any

import numpy as np
from threadpoolctl import ThreadpoolController

from graphmind.recall._logic import Ranked
from graphmind.recall.partition import Partition, build
from graphmind.recall.vectors import GROWTH_SHARE, MindVectors, VectorWrite, empty_vectors, nearest
from graphmind.store import GraphStore
from graphmind.timing import Stopwatch

log = logging.getLogger(__name__)

_CHECK_EVERY = 1024
"""Rows loaded between checks whether the cache was closed (a load stops early then)."""
_CONTROLLER: ThreadpoolController | None = None


def one_blas_thread() -> Any:
    """A context in which numpy's BLAS runs on one thread.

    Recall's small products (one query's embedding, one matrix-vector product) gain little
    from a second BLAS thread, and BLAS threads left spinning while Neo4j holds the cores
    stalled single searches by 30-50 ms (measured on the 2-core VM with bench/ruminate_bench.py).
    Bulk embedding keeps every thread: it is 1.4x faster with two.
    """
    return _controller().limit(limits=1, user_api="blas")


def _controller() -> ThreadpoolController:
    global _CONTROLLER
    if _CONTROLLER is None:
        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER


class VectorCache:
    """In-memory embeddings of the minds recall searches, within ``budget_bytes``."""

    def __init__(self, store: GraphStore, dimensions: int, budget_bytes: int, partition_min: int = 0):
        self._store = store
        self._partition_min = partition_min
        self._partitioning: set[str] = set()
        self._dimensions = dimensions
        self._row_bytes = dimensions * 4 + 2  # a float32 vector and its int16 label code
        self._budget = budget_bytes
        self._copies: OrderedDict[str, MindVectors] = OrderedDict()
        self._too_big: dict[str, tuple[str, str]] = {}
        self._loading: dict[str, Future[MindVectors | None]] = {}
        self._misses: dict[str, int] = {}
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._executor: ThreadPoolExecutor | None = None

    @property
    def enabled(self) -> bool:
        return self._budget > 0

    def lookup(self, mind: str, stamp: str | None, model_id: str) -> MindVectors | None:
        """The copy of ``mind``'s vectors as of ``stamp``, or None; from the second miss on, a
        missing or outdated copy starts loading in the background."""
        if not self.enabled or stamp is None:
            return None
        with self._lock:
            copy = self._copies.get(mind)
            if copy is not None and copy.stamp == stamp and copy.model_id == model_id:
                self._copies.move_to_end(mind)
                return copy
            self._misses[mind] = misses = self._misses.get(mind, 0) + 1
            if (
                misses >= 2
                and self._too_big.get(mind) != (stamp, model_id)
                and mind not in self._loading
                and not self._stop.is_set()
            ):
                self._loading[mind] = self._pool().submit(self._load_in_background, mind, model_id)
        return None

    def search(self, copy: MindVectors, query: np.ndarray, labels: Sequence[str] | None, depth: int) -> list[Ranked]:
        with self._lock, one_blas_thread():
            return nearest(copy, query, labels, depth)

    def load(self, mind: str, model_id: str) -> MindVectors | None:
        """Load ``mind``'s vectors now (None when the cache is off, the mind has no embeddings
        or does not fit the budget)."""
        if not self.enabled:
            return None
        with self._lock:
            pending = self._loading.get(mind)
        if pending is not None:
            pending.result()
            stamp = self._store.read("recall/get_vector_state", mind=mind)[0]["stamp"]
            with self._lock:
                copy = self._copies.get(mind)
                if copy is not None and copy.stamp == stamp and copy.model_id == model_id:
                    return copy
        return self._load(mind, model_id)

    def apply(self, mind: str, write: VectorWrite, model_id: str) -> None:
        """Apply a write of the embedding pass to ``mind``'s copy, if the copy is the one the
        write started from (otherwise the copy is outdated and the next lookup reloads it)."""
        with self._lock:
            copy = self._copies.get(mind)
            if copy is not None and copy.stamp == write.previous and copy.model_id == model_id:
                others = self.held_bytes() - copy.nbytes
                copy.apply(write, max_rows=max(0, self._budget - others) // self._row_bytes)
                self._fit(keep=mind)
                if self._wants_lists(copy) and mind not in self._partitioning and not self._stop.is_set():
                    self._partitioning.add(mind)
                    self._pool().submit(self._partition_in_background, mind, copy)

    def partition_of(self, mind: str) -> Partition | None:
        """The lists ``mind``'s copy is searched through (None: no copy, or scanned whole)."""
        with self._lock:
            copy = self._copies.get(mind)
            return None if copy is None else copy.partition

    def held_bytes(self) -> int:
        with self._lock:
            return sum(copy.nbytes for copy in self._copies.values())

    def close(self) -> None:
        """Stop loading (a load in progress ends at its next check) and drop every copy."""
        self._stop.set()
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
        with self._lock:
            self._copies.clear()

    def _pool(self) -> ThreadPoolExecutor:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphmind-vectors")
        return self._executor

    def _load_in_background(self, mind: str, model_id: str) -> MindVectors | None:
        try:
            return self._load(mind, model_id)
        except Exception:
            log.warning("loading the vectors of mind %r failed; recall keeps using the index", mind, exc_info=True)
            return None
        finally:
            with self._lock:
                self._loading.pop(mind, None)

    def _wants_lists(self, copy: MindVectors) -> bool:
        """True when ``copy`` should be (re)partitioned: large and without lists, or with too many
        rows outside them."""
        if not self._partition_min or copy.size < self._partition_min:
            return False
        return copy.partition is None or copy.partition.stale(copy.size)

    def _partition(self, mind: str, copy: MindVectors) -> None:
        clock = Stopwatch(digits=1)
        order, partition = build(copy.matrix[: copy.size])
        copy.partition_by(order, partition)
        clock.lap("build")
        log.info(
            "mind %r: %d vectors in %d lists, %d probed (recall %.3f at depth 20), built in %.1f s",
            mind,
            copy.size,
            partition.lists,
            partition.nprobe,
            partition.recall,
            clock.laps["build"],
        )

    def _partition_in_background(self, mind: str, copy: MindVectors) -> None:
        """Build lists over ``copy``'s rows as they are now, on one thread. Rows added meanwhile
        stay in the tail; rows replaced meanwhile are checked against their new list."""
        try:
            with self._lock:
                size, matrix = copy.size, copy.matrix
                copy.replaced_log = []
            with _controller().limit(limits=1):  # recall keeps the other core
                order, partition = build(matrix[:size])
            with self._lock:
                if self._copies.get(mind) is copy:
                    replaced = copy.replaced_log or []
                    copy.partition_by(order, partition)
                    moved_to = np.empty(size, dtype=np.int64)
                    moved_to[order] = np.arange(size)
                    for row in (int(moved_to[r]) for r in replaced if r < size):
                        partition.replaced(row, copy.matrix[row])
                    log.info("mind %r: %d vectors in %d lists again", mind, size, partition.lists)
        except Exception:
            log.warning("partitioning the vectors of mind %r failed; recall scans them all", mind, exc_info=True)
        finally:
            with self._lock:
                copy.replaced_log = None
                self._partitioning.discard(mind)

    def _load(self, mind: str, model_id: str) -> MindVectors | None:
        # The stamp is read before the vectors: a write landing in between makes the copy look
        # older than it is, so it is reloaded, never trusted past its data.
        stamp = self._store.read("recall/get_vector_state", mind=mind)[0]["stamp"]
        if stamp is None:
            return None
        counts = self._store.read("recall/count_embedded", mind=mind, model_id=model_id)[0]
        if counts["current"] * (1 + 1 / GROWTH_SHARE) * self._row_bytes > self._budget:  # room to grow
            with self._lock:
                self._too_big[mind] = (stamp, model_id)
            return None
        copy = empty_vectors(stamp, model_id, self._dimensions, capacity=counts["current"], stale=counts["stale"])
        rows = self._store.stream_values("recall/list_vectors", mind=mind, model_id=model_id)
        with closing(rows):
            for index, (uid, label, embedding) in enumerate(rows):
                if index % _CHECK_EVERY == 0 and self._stop.is_set():
                    return None
                copy.add(uid, label, embedding)
        if self._wants_lists(copy):
            self._partition(mind, copy)
        with self._lock:
            self._copies[mind] = copy
            self._copies.move_to_end(mind)
            self._fit(keep=mind)
        return copy

    def _fit(self, keep: str) -> None:
        """Drop the least recently used copies (never ``keep``) until the budget holds."""
        while self.held_bytes() > self._budget:
            victim = next((mind for mind in self._copies if mind != keep), None)
            if victim is None:  # it outgrew the budget alone: not loaded again at this size
                dropped = self._copies.pop(keep)
                self._too_big[keep] = (dropped.stamp, dropped.model_id)
                log.info("the vectors of mind %r outgrew GRAPHMIND_RECALL_CACHE_MB; recall uses the index", keep)
                return
            self._copies.pop(victim)
