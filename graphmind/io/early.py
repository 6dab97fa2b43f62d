"""New memory nodes written while the import file is still being validated (issue 25, item 6).

Validation is client CPU and the writes are mostly server CPU: run one after the other, each
leaves a core idle. So the importer hands each valid node line of a ``Memory`` type to
``EarlyNodes``, which writes batches of them on worker threads while validation reads on.
Only nodes new to the mind are written early (a batch's ids are looked up first): a node
that already exists, and every Run node, is handed back to go through the ordinary node phase
after validation. So what an early write did can be undone without a trace: under strict
mode a bad line anywhere in the file, found early or late, makes ``rollback`` delete the
early nodes (with nothing linked to them yet: edges are written after validation), and the
mind is as it was. After a bad line under strict mode, nothing more is written early.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Protocol

from graphmind.io.lines import NodeLine
from graphmind.io.rows import Rows, chunks, node_row
from graphmind.models import MEMORY_LABEL, base_label
from graphmind.store import GraphStore

log = logging.getLogger(__name__)


class _Plan(Protocol):
    strict: bool
    bad: set[int]
    fresh: set[str]


@functools.cache
def memory_base(label: str) -> bool:
    """True when ``label``'s shared label is ``Memory`` (cached: it runs once a line)."""
    return base_label(label) == MEMORY_LABEL


class EarlyNodes:
    """Writes new memory nodes in batches on ``workers`` threads, at most ``queued`` batches
    built ahead. ``write(rows)`` writes one batch of ``import/upsert_memories`` rows and
    returns how many were written (the importer's own, which splits a refused batch)."""

    def __init__(
        self,
        store: GraphStore,
        mind: str,
        plan: _Plan,
        write: Callable[[Rows], int],
        *,
        batch_size: int,
        workers: int,
        queued: int,
    ):
        self._store, self._mind, self._plan, self._write = store, mind, plan, write
        self._batch_size, self._queued = batch_size, queued
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="graphmind-import-early")
        self._batch: list[NodeLine] = []
        self._in_flight: set[Future[tuple[int, list[NodeLine]]]] = set()
        self.sent: list[str] = []  # the uids of every node handed to a write, to undo them
        self.written = 0
        self.returned: list[NodeLine] = []  # nodes already in the mind: for the ordinary phase

    def add(self, node: NodeLine) -> bool:
        """Take ``node`` to write it early (True), or leave it to the ordinary phase (False)."""
        if not memory_base(node.label) or (self._plan.strict and self._plan.bad):
            return False
        self._batch.append(node)
        if len(self._batch) >= self._batch_size:
            self._submit()
        return True

    def finish(self) -> None:
        """Write what is left and wait for every early batch; ``returned`` is then complete."""
        try:
            if self._batch and not (self._plan.strict and self._plan.bad):
                self._submit()
            else:
                self.returned += self._batch
                self._batch = []
            done, self._in_flight = wait(self._in_flight).done, set()
            self._harvest(done)
        finally:
            self._pool.shutdown(wait=True)

    def stop(self) -> None:
        """Wait for the batches being written (their errors are not raised); start no more."""
        self._batch = []
        self._pool.shutdown(wait=True)

    def rollback(self) -> None:
        """Wait for the batches still being written, then delete every node written early."""
        self.stop()
        if not self.sent:
            return
        deleted = 0
        for uids in chunks(self.sent, self._batch_size):
            deleted += self._store.write("import/delete_new_memories", mind=self._mind, uids=uids)[0]["deleted"]
        log.info("import into %s stopped: deleted the %d nodes written early", self._mind, deleted)
        self.sent, self.written = [], 0

    def _submit(self) -> None:
        if len(self._in_flight) >= self._queued:
            done, self._in_flight = wait(self._in_flight, return_when=FIRST_COMPLETED)
            self._harvest(done)
        batch, self._batch = self._batch, []
        self._in_flight.add(self._pool.submit(self._write_new, batch))

    def _harvest(self, done: set[Future[tuple[int, list[NodeLine]]]]) -> None:
        for future in done:
            written, existing = future.result()  # an error (a refused row under strict) is raised here
            self.written += written
            self.returned += existing

    def _write_new(self, batch: list[NodeLine]) -> tuple[int, list[NodeLine]]:
        """Write the nodes of ``batch`` that are new to the mind; return the others."""
        found = self._store.read("import/find_labels", mind=self._mind, ids=[node.id for node in batch])
        existing = {row["id"] for row in found}
        rows, kept = Rows(), []
        for node in batch:
            if node.id in existing:
                kept.append(node)
            else:
                rows.add(node.line, node_row(self._mind, node))
                self._plan.fresh.add(node.id)
                self.sent.append(f"{self._mind}:{node.id}")
        return (self._write(rows) if rows.rows else 0), kept
