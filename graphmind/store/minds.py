"""Checks about minds that several engines share."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from graphmind.errors import NotFoundError, ValidationError
from graphmind.store.graph_store import GraphStore

MIND_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def check_mind_name(name: object) -> str:
    """``name`` if it can name a mind (letters, digits, '_', '.', '-'; no ':'), else ValidationError."""
    if not isinstance(name, str) or not MIND_NAME.fullmatch(name):
        raise ValidationError(f"mind name {name!r} is invalid: use 1-64 letters, digits, '_', '.' or '-'", field="mind")
    return name


@dataclass(frozen=True)
class MindStats:
    """A mind's nodes by label and relationships by type; ``out_of_use``: of those nodes, the ones
    kept for the record but no longer in use (retired, pruned, invalidated or past invalid_at)."""

    mind: str
    labels: dict[str, int]
    relationships: dict[str, int]
    out_of_use: dict[str, int] = field(default_factory=dict)

    @property
    def nodes(self) -> int:
        return sum(self.labels.values())

    def as_dict(self) -> dict[str, Any]:
        return {
            "mind": self.mind,
            "nodes": self.nodes,
            "labels": self.labels,
            "relationships": self.relationships,
            "out_of_use": self.out_of_use,
        }


@dataclass(frozen=True)
class MindSummary:
    """One mind of the database: its name and how many memories and run records it holds."""

    name: str
    memories: int
    runs: int

    def as_dict(self) -> dict[str, Any]:
        return {"mind": self.name, "memories": self.memories, "runs": self.runs}


def list_minds(store: GraphStore) -> list[MindSummary]:
    """Every mind that holds a node, by name."""
    rows = store.read("admin/list_minds")
    return sorted((MindSummary(r["mind"], r["memories"], r["runs"]) for r in rows), key=lambda m: m.name)


def mind_exists(store: GraphStore, mind: str) -> bool:
    """Whether ``mind`` holds a node (a mind exists once something was written to it)."""
    return bool(store.read("admin/get_mind_presence", mind=mind)[0]["present"])


def require_mind(store: GraphStore, mind: str, holdings: str) -> None:
    """NotFoundError unless ``mind`` holds a node; ``holdings`` names what to import first."""
    if not mind_exists(store, mind):
        raise NotFoundError(
            f"mind {mind!r} does not exist: import its {holdings} first "
            f"(graphmind import FILE --mind {mind}); 'graphmind minds list' shows the minds"
        )


def delete_mind(store: GraphStore, mind: str) -> None:
    """Delete every node and relationship of ``mind``, and its vector stamp, in batches: its
    runs' relationships to its memories (from the memories' side: a run has one per experience
    it read), its runs, its memories' relationships, then its memories (other minds are
    untouched)."""
    for query in (
        "admin/delete_mind_run_links",
        "admin/delete_mind_runs",
        "admin/delete_mind_relationships",
        "admin/delete_mind",
    ):
        store.autocommit(query, mind=mind)
    store.write("admin/delete_mind_stamp", mind=mind)
