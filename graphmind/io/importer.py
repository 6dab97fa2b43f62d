"""Bulk import of one mind from JSON Lines: validate everything, then write in batches.

One pass streams the file and validates every line, spilling the valid rows in batches to a
temporary file; endpoints of edges that are not in the file are then looked up in the mind.
Meanwhile the memory nodes new to the mind are written on worker threads (graphmind/io/early.py,
``overlap``): under ``strict`` (the default) any bad line stops the import and deletes them, so a
bad file leaves the mind as it was. Then the other nodes, and after them edges, are written from the
spill with batched ``UNWIND`` queries that MERGE on ``uid``, so importing the same file twice
changes nothing; the report counts the nodes new, changed and unchanged. A line that would change an
experience a pattern holds is refused (graphmind/io/held.py). A batch Neo4j refuses for its data is
split until the rows it refuses are alone: those lines are refused by number (under ``strict`` the
first stops the import) and the rest land. Only ids and labels are held in memory, never the lines.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphmind.errors import StoreError, StoreRejectedError, ValidationError
from graphmind.io.conversation import ConversationLines, Speakers, speaker_lines
from graphmind.io.early import EarlyNodes, memory_base
from graphmind.io.held import as_written, check_held
from graphmind.io.jsonl import EdgeLine, LineError, NodeLine, iter_lines, parse_line
from graphmind.io.lines import ImportReport
from graphmind.io.replaced import mark_replaced, replacing
from graphmind.io.rows import Rows, chunks, edge_row, new_memory_edge_row, node_rows
from graphmind.io.speakers_kept import drop_stand_ins
from graphmind.io.spill import Spill
from graphmind.models import MEMORY_LABEL, NODE_TYPES, RUN_LABEL, base_label
from graphmind.store import GraphStore
from graphmind.timing import Stopwatch

Progress = Callable[[str, int, int], None]
"""Called as ``progress(phase, done, total)`` while nodes and edges are written."""
MAX_REPORTED_ERRORS = 1000
QUEUED_PER_WORKER = 2
log = logging.getLogger(__name__)


@dataclass
class _Plan:
    """What validation learned: ids by label, bad lines, edge endpoints not in the file."""

    node_rows: Spill
    edge_rows: Spill
    strict: bool = True
    labels: dict[str, str] = field(default_factory=dict)
    stored_bases: dict[str, str] = field(default_factory=dict)
    fresh: set[str] = field(default_factory=set)
    first_line: dict[str, int] = field(default_factory=dict)
    errors: list[LineError] = field(default_factory=list)
    bad: set[int] = field(default_factory=set)
    pending: dict[str, list[int]] = field(default_factory=dict)
    unwritten: dict[str, int] = field(default_factory=dict)
    speakers: Speakers = field(default_factory=Speakers)
    replacing: list[tuple[str, str, int]] = field(default_factory=list)  # (new, old, line): io.replaced
    displaced: list[tuple[str, str, int]] = field(default_factory=list)  # (turn, stand-in, line): io.speakers_kept
    held: set[str] = field(default_factory=set)  # stored experiences a pattern holds: io.held
    lines: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def refuse(self, error: LineError) -> None:
        """Mark a line bad (every one is skipped; the first MAX_REPORTED_ERRORS are reported)."""
        with self.lock:
            if error.line not in self.bad and len(self.errors) < MAX_REPORTED_ERRORS:
                self.errors.append(error)
            self.bad.add(error.line)

    def rejected(self, line: int, reason: str, node_id: str | None) -> None:
        """Neo4j refused the row of ``line``: the import stops under ``strict``, else the line
        is refused like an invalid one (a new node's edges are refused with it)."""
        reason = f"Neo4j refused it: {_printable(reason)}"
        if self.strict:
            raise ValidationError(
                f"line {line}: {reason} (the import stopped part-way; fix the line, or "
                "skip invalid lines, and import again)",
                line=line,
                reason=reason,
            )
        self.refuse(LineError(line, None, reason))
        if node_id in self.fresh:
            self.unwritten[node_id] = line

    def base(self, node_id: str) -> str:
        """``Memory`` or ``Run``: the shared label of a node in the file or already stored."""
        label = self.labels.get(node_id)
        if label:
            return MEMORY_LABEL if memory_base(label) else RUN_LABEL
        return self.stored_bases[node_id]


class Importer:
    """Imports JSON Lines files into one mind of ``store``."""

    def __init__(
        self,
        store: GraphStore,
        *,
        batch_size: int = 5000,
        workers: int = 2,
        max_property_bytes: int = 1_000_000,
        overlap: bool = True,
    ):
        self._store = store
        self._overlap = overlap  # new memory nodes are written while validation runs (early.py)
        self._batch_size = batch_size
        self._workers = workers
        self._queued = QUEUED_PER_WORKER * workers  # batches built ahead, at most, with their rows
        self._max_property_bytes = max_property_bytes

    def run(self, path: Path, mind: str, *, strict: bool = True, progress: Progress | None = None) -> ImportReport:
        # The cyclic GC stays on: pausing it is ~13% faster but process-wide (import_bench --gc).
        clock = Stopwatch()
        plan = _Plan(Spill(self._batch_size), Spill(self._batch_size), strict)
        early = self._early(plan, mind)
        try:
            try:
                self._validate(path, mind, plan, early)
                if plan.lines == 0:
                    raise ValidationError(f"{path} is empty: there is nothing to import")
                self._resolve_pending(mind, plan)
                restated = check_held(self._store, mind, plan, self._batch_size)
                if plan.bad and strict:
                    first = min(plan.errors, key=lambda e: e.line)
                    raise ValidationError(
                        f"{first.sentence()} ({len(plan.bad)} invalid line(s); nothing was written)",
                        line=first.line,
                        field=first.field,
                    )
            except (ValidationError, KeyboardInterrupt):
                if early:
                    early.rollback()  # strict: the mind is left as it was
                raise
            except StoreError as exc:
                if early and early.sent:  # the early batches before it are written
                    raise _part_way(exc, path) from exc
                raise
            clock.lap("validate_s")
            try:
                nodes = self._write_nodes(plan, mind, progress, early.written if early else 0)
                clock.lap("nodes_s")
                edges = self._write_edges(plan, mind, progress)
                marked = mark_replaced(self._store, mind, plan.replacing, skip=plan.bad, restated=restated)
                respoken = drop_stand_ins(self._store, mind, plan.displaced, plan.bad, plan.fresh, self._batch_size)
                clock.lap("edges_s")
            except StoreError as exc:
                raise _part_way(exc, path) from exc
        finally:
            plan.node_rows.close()
            plan.edge_rows.close()
        return ImportReport(
            mind=mind,
            nodes=nodes["written"],
            new=nodes["created"],
            changed=nodes["changed"],
            edges=edges,
            invalid=sorted(plan.errors, key=lambda e: e.line),
            skipped=len(plan.bad),
            invalidated=marked,
            respoken=respoken,
            timings=clock.laps,
        )

    def _early(self, plan: _Plan, mind: str) -> EarlyNodes | None:
        if not self._overlap:
            return None

        def write(rows: Rows) -> int:
            return self._write(plan, "import/upsert_memories", rows, mind=mind)["written"]

        return EarlyNodes(
            self._store, mind, plan, write, batch_size=self._batch_size, workers=self._workers, queued=self._queued
        )

    # -- pass 1: validate (and write new memory nodes early) --------------------------------
    def _validate(self, path: Path, mind: str, plan: _Plan, early: EarlyNodes | None) -> None:
        try:
            self._read(path, plan, early)
        except BaseException:
            if early:
                early.stop()  # the batches being written end; no more start
            raise
        if early:
            early.finish()  # every early batch written; the nodes it gave back wait for validation:
        for node in early.returned if early else ():
            plan.node_rows.add(node)
        self._note_speakers(mind, plan)
        for node_id in plan.pending.keys() & plan.labels.keys():  # nodes that came after their edges
            del plan.pending[node_id]

    def _read(self, path: Path, plan: _Plan, early: EarlyNodes | None) -> None:
        for number, text in iter_lines(path):
            plan.lines += 1
            try:
                item = parse_line(number, text, self._max_property_bytes)
            except ValidationError as exc:
                plan.refuse(LineError(number, exc.field, exc.reason))
                continue
            if isinstance(item, ConversationLines):
                plan.speakers.note(item)
            for line in item.nodes + item.edges if isinstance(item, ConversationLines) else [item]:
                if isinstance(line, NodeLine):
                    self._note_node(plan, line, early)
                else:
                    self._note_edge(plan, line)

    @staticmethod
    def _note_node(plan: _Plan, node: NodeLine, early: EarlyNodes | None = None) -> None:
        if node.id in plan.labels:
            first = plan.first_line[node.id]
            plan.refuse(LineError(node.line, "id", f"duplicate id {node.id!r} (first on line {first})"))
            return
        plan.labels[node.id] = node.label
        plan.first_line[node.id] = node.line
        if early is None or not early.add(node):
            plan.node_rows.add(node)
        plan.speakers.note_node(node)

    @staticmethod
    def _note_edge(plan: _Plan, edge: EdgeLine) -> None:
        plan.edge_rows.add(edge)
        if pair := replacing(edge):
            plan.replacing.append(pair)
        for end in (edge.from_id, edge.to_id):
            if end not in plan.labels:
                plan.pending.setdefault(end, []).append(edge.line)

    def _note_speakers(self, mind: str, plan: _Plan) -> None:
        """The SPOKEN_BY edges of the conversations read, and the Person nodes they need."""
        if not plan.speakers.turns:
            return

        def stored(names: list[str]) -> dict[str, str]:
            rows = self._store.read("import/find_partners", mind=mind, names=names) if names else []
            return {row["name"]: row["id"] for row in rows}

        plan.speakers.drop_lines(plan.bad)  # a Person is made on a line that is written
        nodes, edges, plan.displaced = speaker_lines(plan.speakers, plan.labels.__contains__, stored)
        for node in nodes:
            self._note_node(plan, node)
        for edge in edges:
            self._note_edge(plan, edge)

    # -- resolve against the mind -------------------------------------------------------
    def _resolve_pending(self, mind: str, plan: _Plan) -> None:
        """Endpoints not in the file must already be in the mind; labels must not change."""
        existing: dict[str, list[str]] = {}
        written = set(plan.fresh)  # written early: new, of the label their line gives
        unknown = [node_id for node_id in plan.labels if node_id not in written]
        for ids in chunks(list(plan.pending) + unknown, self._batch_size):
            for row in self._store.read("import/find_labels", mind=mind, ids=ids):
                existing[row["id"]] = row["labels"]
                if row["held"] and row["id"] in plan.labels:
                    plan.held.add(row["id"])
        plan.fresh |= {node_id for node_id in unknown if node_id not in existing}
        for node_id, label in plan.labels.items():
            stored = existing.get(node_id)
            if stored and label not in stored:
                plan.refuse(
                    LineError(
                        plan.first_line[node_id],
                        "label",
                        f"id {node_id!r} already exists in mind {mind!r} as {stored[0]}",
                    )
                )
                plan.labels[node_id] = _stored_label(stored)  # its edges link to the stored node
        for node_id, lines in plan.pending.items():
            if node_id in existing:
                plan.stored_bases[node_id] = _base_of(existing[node_id])
            else:
                for number in lines:
                    reason = f"edge endpoint {node_id!r} is not a node of mind {mind!r}"
                    plan.refuse(LineError(number, "to/from", reason))

    # -- write ----------------------------------------------------------------------------
    def _write_nodes(self, plan: _Plan, mind: str, progress: Progress | None, early: int) -> Counter[str]:
        """Node batches touch distinct uids, so ``workers`` transactions run side by side. The
        rows of the next batches are built while they run and wait in the pool's queue, so a
        worker starts its next transaction as soon as one commits. ``early``: nodes written
        during validation (all new), counted in. The upserts' counts: written, created, changed."""
        written, in_flight = Counter(written=early, created=early), set[Future[Counter[str]]]()
        with ThreadPoolExecutor(self._workers, thread_name_prefix="graphmind-import") as pool:
            for batch in plan.node_rows.batches():
                rows = node_rows(mind, as_written(batch, plan))
                if len(in_flight) >= self._queued:
                    done, in_flight = wait(in_flight, return_when=FIRST_COMPLETED)
                    for future in done:
                        written += future.result()
                    if progress:
                        progress("nodes", written["written"], early + plan.node_rows.count)
                in_flight.add(pool.submit(self._write_node_rows, plan, mind, rows))
            for future in in_flight:
                written += future.result()
        if progress:
            progress("nodes", written["written"], early + plan.node_rows.count)
        return written

    def _write_node_rows(self, plan: _Plan, mind: str, rows: dict[str, Rows]) -> Counter[str]:
        written: Counter[str] = Counter()
        for base, query in ((MEMORY_LABEL, "import/upsert_memories"), (RUN_LABEL, "import/upsert_runs")):
            if rows[base].rows:
                written += self._write(plan, query, rows[base], mind=mind)
        return written

    def _write_edges(self, plan: _Plan, mind: str, progress: Progress | None) -> int:
        """An edge between two nodes this import created, the first of its (from, type, to) in
        the file, cannot exist yet: it is ``new``. New edges between two memories (the common
        case) are created by ``import/link_new_memory_edges`` without an existence check, in
        ``workers`` transactions side by side (the driver retries one that deadlocks on a
        shared endpoint). Every other edge goes through ``import/link_edges``, which finds an
        existing edge and takes the line's properties (the last line wins): those batches run
        alone, after every batch before them has committed, so a repeated edge always finds the
        one its first line created.
        """
        written, seen, in_flight = 0, set(), set[Future[int]]()
        with ThreadPoolExecutor(self._workers, thread_name_prefix="graphmind-import") as pool:
            for batch in plan.edge_rows.batches():
                fast, rest = Rows(), Rows()
                for edge in batch:
                    if edge.line in plan.bad or self._lost_endpoint(plan, edge):
                        continue
                    key = hash((edge.from_id, edge.rel, edge.to_id, edge.key))
                    new = edge.from_id in plan.fresh and edge.to_id in plan.fresh and key not in seen
                    seen.add(key)
                    if new and plan.base(edge.from_id) == plan.base(edge.to_id) == MEMORY_LABEL:
                        fast.add(edge.line, new_memory_edge_row(mind, edge))
                    else:
                        rest.add(edge.line, edge_row(mind, edge, plan.base(edge.from_id), plan.base(edge.to_id), new))
                if len(in_flight) >= self._queued:
                    done, in_flight = wait(in_flight, return_when=FIRST_COMPLETED)
                    written += sum(future.result() for future in done)
                if fast.rows:
                    in_flight.add(pool.submit(self._linked, plan, "import/link_new_memory_edges", fast))
                if rest.rows:  # a barrier: every edge before these is committed
                    written += sum(future.result() for future in in_flight)
                    in_flight = set()
                    written += self._linked(plan, "import/link_edges", rest)
                if progress:
                    progress("edges", written, plan.edge_rows.count)
            written += sum(future.result() for future in in_flight)
        if progress:
            progress("edges", written, plan.edge_rows.count)
        return written

    @staticmethod
    def _lost_endpoint(plan: _Plan, edge: EdgeLine) -> bool:
        """Refuse an edge whose new endpoint Neo4j refused (True when it did)."""
        for end in (edge.from_id, edge.to_id):
            if end in plan.unwritten:
                reason = f"edge endpoint {end!r} was not written: Neo4j refused line {plan.unwritten[end]}"
                plan.refuse(LineError(edge.line, "to/from", reason))
                return True
        return False

    def _linked(self, plan: _Plan, query: str, batch: Rows) -> int:
        return self._write(plan, query, batch)["linked"]

    def _write(self, plan: _Plan, query: str, batch: Rows, **params: Any) -> Counter[str]:
        """Write one batch; returns the query's counts (its columns). A batch Neo4j refuses for
        its data is written in halves, down to single rows: the rows it still refuses are the bad
        ones (``plan.rejected``), and every other row lands."""
        try:
            return Counter(self._store.write(query, rows=batch.rows, **params)[0])
        except StoreRejectedError as exc:
            if len(batch.rows) == 1:
                plan.rejected(batch.lines[0], exc.reason, batch.rows[0].get("id"))  # node rows carry their id
                return Counter()
            log.info("%s: Neo4j refused a batch of %d rows; writing it in halves", query, len(batch.rows))
            first, second = batch.halves()
            return self._write(plan, query, first, **params) + self._write(plan, query, second, **params)


def _part_way(exc: StoreError, path: Path) -> StoreError:
    return type(exc)(
        f"{exc} (the import of {path.name} stopped part-way: the batches before "
        "this one are written; run it again to complete it)",
        query=exc.query,
    )


def _printable(text: str) -> str:
    """``text`` with control characters (a NUL in a name Neo4j quotes back) escaped."""
    return text if text.isprintable() else repr(text)[1:-1]


def _stored_label(stored_labels: list[str]) -> str:
    return next(label for label in stored_labels if label in NODE_TYPES)


def _base_of(stored_labels: list[str]) -> str:
    return base_label(_stored_label(stored_labels))
