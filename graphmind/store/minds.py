"""Checks about minds that several engines share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graphmind.errors import NotFoundError
from graphmind.store.graph_store import GraphStore


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
