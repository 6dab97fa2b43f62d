"""The rows of an import's write queries, built from validated lines (pure)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from graphmind.io.lines import EdgeLine, NodeLine
from graphmind.models import MEMORY_LABEL, RUN_LABEL, base_label, edge_properties_model


@dataclass
class Rows:
    """The rows of one write and the line each comes from (to name a row Neo4j refuses)."""

    lines: list[int] = field(default_factory=list)
    rows: list[dict[str, Any]] = field(default_factory=list)

    def add(self, line: int, row: dict[str, Any]) -> None:
        self.lines.append(line)
        self.rows.append(row)

    def halves(self) -> tuple[Rows, Rows]:
        half = len(self.rows) // 2
        return (Rows(self.lines[:half], self.rows[:half]), Rows(self.lines[half:], self.rows[half:]))


def node_rows(mind: str, nodes: list[NodeLine]) -> dict[str, Rows]:
    """The rows of ``import/upsert_memories`` and ``import/upsert_runs``."""
    rows = {MEMORY_LABEL: Rows(), RUN_LABEL: Rows()}
    for node in nodes:
        rows[base_label(node.label)].add(node.line, node_row(mind, node))
    return rows


def node_row(mind: str, node: NodeLine) -> dict[str, Any]:
    return {"uid": f"{mind}:{node.id}", "id": node.id, "label": node.label, "props": node.props, "dates": node.dates}


def new_memory_edge_row(mind: str, edge: EdgeLine) -> dict[str, Any]:
    """What ``import/link_new_memory_edges`` reads: no endpoint kinds, key or existence flag."""
    return {
        "from_uid": f"{mind}:{edge.from_id}",
        "to_uid": f"{mind}:{edge.to_id}",
        "rel": edge.rel,
        "props": edge.props,
        "dates": edge.dates,
    }


def edge_row(mind: str, edge: EdgeLine, from_base: str, to_base: str, new: bool) -> dict[str, Any]:
    """What ``import/link_edges`` reads; ``*_base``: the endpoints' shared labels (Memory or Run)."""
    return {
        "from_uid": f"{mind}:{edge.from_id}",
        "from_base": from_base,
        "to_uid": f"{mind}:{edge.to_id}",
        "to_base": to_base,
        "rel": edge.rel,
        "props": edge.props,
        "dates": edge.dates,
        "key": list(edge_properties_model(edge.rel).KEY),
        "new": new,
    }


def chunks(items: list[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
