"""Bulk import of one mind from JSON Lines: validate everything, then write in batches.

Pass 1 streams the file and validates every line (nothing is written); endpoints of edges
that are not in the file are then looked up in the mind. Under ``strict`` (the default) any
bad line stops the import before a single write. Passes 2 and 3 stream the file again and
write nodes, then edges, with batched ``UNWIND`` queries that MERGE on ``uid``, so importing
the same file twice changes nothing. Only ids and labels are held in memory, never lines.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphmind.errors import ValidationError
from graphmind.io.jsonl import EdgeLine, LineError, NodeLine, iter_lines, parse_line
from graphmind.models import base_label
from graphmind.store import GraphStore

Progress = Callable[[int], None]
MAX_REPORTED_ERRORS = 1000


@dataclass
class _Plan:
    """What pass 1 learned: ids by label, bad lines, edges waiting on unknown endpoints."""

    labels: dict[str, str] = field(default_factory=dict)
    first_line: dict[str, int] = field(default_factory=dict)
    errors: list[LineError] = field(default_factory=list)
    error_count: int = 0
    pending: dict[str, list[int]] = field(default_factory=dict)
    nodes: int = 0
    edges: int = 0
    lines: int = 0

    def refuse(self, error: LineError) -> None:
        self.error_count += 1
        if len(self.errors) < MAX_REPORTED_ERRORS:
            self.errors.append(error)

    def bad_lines(self) -> set[int]:
        return {e.line for e in self.errors}


@dataclass(frozen=True)
class ImportReport:
    mind: str
    nodes: int
    edges: int
    invalid: list[LineError]

    def as_dict(self) -> dict[str, Any]:
        return {"mind": self.mind, "nodes": self.nodes, "edges": self.edges,
                "invalid": [e.as_dict() for e in self.invalid]}


class Importer:
    """Imports JSON Lines files into one mind of ``store``."""

    def __init__(self, store: GraphStore, *, batch_size: int = 5000, max_property_bytes: int = 1_000_000):
        self._store = store
        self._batch_size = batch_size
        self._max_property_bytes = max_property_bytes

    def run(self, path: Path, mind: str, *, strict: bool = True, progress: Progress | None = None) -> ImportReport:
        plan = self._validate(path)
        if plan.lines == 0:
            raise ValidationError(f"{path} is empty: there is nothing to import")
        self._resolve_pending(mind, plan)
        if plan.error_count and strict:
            first = min(plan.errors, key=lambda e: e.line)
            raise ValidationError(
                f"{first.sentence()} ({plan.error_count} invalid line(s); nothing was written)",
                line=first.line, field=first.field,
            )
        skip = plan.bad_lines()
        nodes = self._write_nodes(path, mind, skip, progress)
        edges = self._write_edges(path, mind, skip, progress)
        return ImportReport(mind=mind, nodes=nodes, edges=edges, invalid=sorted(plan.errors, key=lambda e: e.line))

    # -- pass 1: validate ---------------------------------------------------------------
    def _validate(self, path: Path) -> _Plan:
        plan = _Plan()
        edges: list[tuple[int, str, str]] = []
        for number, text, _size in iter_lines(path):
            plan.lines += 1
            try:
                item = parse_line(number, text, self._max_property_bytes)
            except ValidationError as exc:
                plan.refuse(LineError(number, exc.field, _reason(exc)))
                continue
            if isinstance(item, NodeLine):
                self._note_node(plan, item)
            else:
                edges.append((item.line, item.from_id, item.to_id))
        for number, *ends in edges:
            for end in ends:
                if end not in plan.labels:
                    plan.pending.setdefault(end, []).append(number)
        plan.edges = len(edges)
        return plan

    @staticmethod
    def _note_node(plan: _Plan, node: NodeLine) -> None:
        if node.id in plan.labels:
            first = plan.first_line[node.id]
            plan.refuse(LineError(node.line, "id", f"duplicate id {node.id!r} (first on line {first})"))
            return
        plan.labels[node.id] = node.label
        plan.first_line[node.id] = node.line
        plan.nodes += 1

    # -- resolve against the mind -------------------------------------------------------
    def _resolve_pending(self, mind: str, plan: _Plan) -> None:
        """Endpoints not in the file must already be in the mind; labels must not change."""
        existing: dict[str, list[str]] = {}
        for ids in _chunks(list(plan.pending) + list(plan.labels), self._batch_size):
            for row in self._store.read("import/find_labels", mind=mind, ids=ids):
                existing[row["id"]] = row["labels"]
        for node_id, label in plan.labels.items():
            stored = existing.get(node_id)
            if stored and label not in stored:
                plan.refuse(LineError(plan.first_line[node_id], "label",
                                      f"id {node_id!r} already exists in mind {mind!r} as {stored[0]}"))
        for node_id, lines in plan.pending.items():
            if node_id not in existing:
                for number in lines:
                    plan.refuse(LineError(number, "to/from", f"edge endpoint {node_id!r} is not a node of mind {mind!r}"))

    # -- passes 2 and 3: write ----------------------------------------------------------
    def _write_nodes(self, path: Path, mind: str, skip: set[int], progress: Progress | None) -> int:
        written = 0
        for batch in _batches(self._items(path, NodeLine, skip, progress), self._batch_size):
            memories = [_node_row(mind, n) for n in batch if base_label(n.label) == "Memory"]
            runs = [_node_row(mind, n) for n in batch if base_label(n.label) == "Run"]
            if memories:
                written += self._store.write("import/upsert_memories", mind=mind, rows=memories)[0]["written"]
            if runs:
                written += self._store.write("import/upsert_runs", mind=mind, rows=runs)[0]["written"]
        return written

    def _write_edges(self, path: Path, mind: str, skip: set[int], progress: Progress | None) -> int:
        written = 0
        for batch in _batches(self._items(path, EdgeLine, skip, progress), self._batch_size):
            rows = [{"from_uid": f"{mind}:{e.from_id}", "to_uid": f"{mind}:{e.to_id}",
                     "rel": e.rel, "props": e.props} for e in batch]
            written += self._store.write("import/link_edges", rows=rows)[0]["linked"]
        return written

    def _items(self, path: Path, kind: type, skip: set[int], progress: Progress | None) -> Iterator[Any]:
        for number, text, size in iter_lines(path):
            if progress:
                progress(size)
            if number in skip:
                continue
            item = parse_line(number, text, self._max_property_bytes)
            if isinstance(item, kind):
                yield item


def _node_row(mind: str, node: NodeLine) -> dict[str, Any]:
    return {"uid": f"{mind}:{node.id}", "id": node.id, "label": node.label, "props": node.props}


def _reason(exc: ValidationError) -> str:
    text = str(exc)
    return text.split(": ", 1)[1] if text.startswith("line ") and ": " in text else text


def _batches(items: Iterator[Any], size: int) -> Iterator[list[Any]]:
    batch: list[Any] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _chunks(items: list[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
