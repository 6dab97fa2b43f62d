"""Recall's hit counts, written behind: a recall returns without waiting for its hit write.

``count_hits`` queues the recalled memories and returns; one background thread per store (so one
for every Mind of a process that shares it) writes what is queued in batches through
cypher/recall/mark_hit_counts: a memory recalled n times since the last write gets n hits in one
row, and each batch locks its memories in uid order, as a synchronous count does, so writers wait
for each other instead of deadlocking. A recall never waits for the lock another recall's hit
write holds. Queued hits wait LINGER_S for more to join their batch; the thread ends after IDLE_S
without hits and starts again with the next.

Bounded: with MAX_PENDING memories already queued, ``count_hits`` writes its own in the caller's
thread. Nothing is dropped silently: a failed batch is logged, queued again and retried;
``flush_hits`` waits for what was queued before it (and raises the error of a failed write);
``Recaller.close`` (so ``Mind.close``) flushes; the store's close and interpreter exit write what
is left and log as an error what cannot be written. Whatever reads hits (the digests, wander, ``Mind.get``, export)
flushes first, so it sees every recall made before it in this process.
"""

from __future__ import annotations

import atexit
import logging
import threading
import time
import weakref
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from graphmind.errors import StoreError
from graphmind.store import GraphStore

log = logging.getLogger(__name__)

QUERY = "recall/mark_hit_counts"
MAX_PENDING = 10_000
"""Memories queued for a hit count at most; a recall beyond that counts its hits itself."""
RETRY_S = 1.0
"""Wait before a failed batch is written again."""
LINGER_S = 0.2
"""How long queued hits wait for more to join their batch (a flush writes them at once)."""
IDLE_S = 2.0
"""How long the writer thread waits for more hits before it ends."""

Pending = dict[str, dict[str, tuple[int, datetime]]]  # mind -> uid -> (hits, last hit)


def count_hits(store: GraphStore, mind: str, uids: Sequence[str], *, max_pending: int = MAX_PENDING) -> None:
    """Count one hit on each of ``uids`` (memories of ``mind``), behind the caller if there is room."""
    if uids:
        _counter(store).count(store, mind, uids, max_pending)


def flush_hits(store: GraphStore) -> None:
    """Return once the hits queued on ``store`` before this call are written; raise if that failed."""
    counter = _COUNTERS.get(store)
    if counter is not None:
        counter.flush()


class _Counter:
    """The queue and writer thread of one store (see the module doc)."""

    def __init__(self) -> None:
        self._pending: Pending = {}
        self._size = 0
        self._queued = 0  # batches of hits queued so far
        self._written = 0  # of those, how many were written
        self._error: Exception | None = None
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closing = False
        self._flushing = 0  # flush() calls waiting

    def count(self, store: GraphStore, mind: str, uids: Sequence[str], max_pending: int) -> None:
        now = datetime.now(UTC)
        with self._cond:
            if not self._closing and self._size + len(uids) <= max_pending:
                _merge(self._pending, mind, {uid: (1, now) for uid in uids})
                self._size = _size(self._pending)
                self._queued += 1
                if self._thread is None:  # the thread holds the store while it runs
                    self._thread = threading.Thread(target=self._run, args=(store,), name="graphmind-hits", daemon=True)
                    self._thread.start()
                self._cond.notify_all()
                return
        log.debug("%d memories wait for a hit count: %d more are counted in the caller", self._size, len(uids))
        _write(store, {mind: {uid: (1, now) for uid in uids}})

    def flush(self) -> None:
        with self._cond:
            target = self._queued
            self._flushing += 1
            self._cond.notify_all()  # no lingering for more
            try:
                while self._written < target and self._error is None and self._thread is not None:
                    self._cond.wait()
            finally:
                self._flushing -= 1
            if self._written < target:
                raise StoreError(
                    f"{self._size} recalled memories wait for their hit count: {self._error}", query=QUERY
                ) from self._error

    def close(self) -> None:
        """At store close or interpreter exit: stop the thread once it has written what is queued;
        later hits are counted in the caller."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join()

    def _run(self, store: GraphStore) -> None:
        while True:
            with self._cond:
                if not self._pending and not self._closing:
                    self._cond.wait(IDLE_S)
                if not self._pending:
                    self._thread = None
                    self._cond.notify_all()
                    return
                self._linger(LINGER_S)
                batch, self._pending, self._size = self._pending, {}, 0
                upto = self._queued
            try:
                _write(store, batch)
            except Exception as exc:  # logged; what was not written is queued again (or reported lost)
                with self._cond:
                    if self._closing:
                        _lost(batch, exc)
                        self._written, self._error = upto, exc
                        continue
                    log.warning("counting hits of recalled memories failed; retrying in %g s: %s", RETRY_S, exc)
                    _merge_all(self._pending, batch)
                    self._size = _size(self._pending)
                    self._error = exc
                    self._cond.notify_all()
                    self._linger(RETRY_S)
                continue
            with self._cond:
                self._written, self._error = upto, None
                self._cond.notify_all()

    def _linger(self, seconds: float) -> None:
        """Wait ``seconds`` (holding the condition), less when a flush or the close asks."""
        deadline = time.monotonic() + seconds
        while not (self._closing or self._flushing) and (left := deadline - time.monotonic()) > 0:
            self._cond.wait(left)


_COUNTERS: weakref.WeakKeyDictionary[GraphStore, _Counter] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def _counter(store: GraphStore) -> _Counter:
    with _LOCK:
        counter = _COUNTERS.get(store)
        if counter is None:
            counter = _COUNTERS[store] = _Counter()
            store.on_close(counter.close)
        return counter


@atexit.register
def _at_exit() -> None:
    with _LOCK:
        counters = list(_COUNTERS.values())
    for counter in counters:
        counter.close()


def _merge(pending: Pending, mind: str, rows: dict[str, tuple[int, datetime]]) -> None:
    into = pending.setdefault(mind, {})
    for uid, (hits, at) in rows.items():
        old_hits, old_at = into.get(uid, (0, at))
        into[uid] = (old_hits + hits, max(old_at, at))


def _merge_all(pending: Pending, more: Pending) -> None:
    for mind, rows in more.items():
        _merge(pending, mind, rows)


def _size(pending: Pending) -> int:
    return sum(len(rows) for rows in pending.values())


def _lost(pending: Pending, exc: Exception) -> None:
    log.error(
        "%d hits on %d recalled memories of %s were not counted: %s",
        sum(n for rows in pending.values() for n, _ in rows.values()),
        _size(pending),
        ", ".join(sorted(pending)),
        exc,
    )


def _write(store: GraphStore, pending: Pending) -> None:
    """Write ``pending`` mind by mind, each removed once written (what is left failed)."""
    for mind in sorted(pending):
        rows: list[dict[str, Any]] = [
            {"uid": uid, "hits": n, "at": at} for uid, (n, at) in sorted(pending[mind].items())
        ]
        store.write(QUERY, mind=mind, rows=rows)
        del pending[mind]
