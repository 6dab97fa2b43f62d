"""Checks about minds that several engines share."""

from __future__ import annotations

from graphmind.errors import NotFoundError
from graphmind.store.graph_store import GraphStore


def require_mind(store: GraphStore, mind: str, holdings: str) -> None:
    """NotFoundError unless ``mind`` holds a node; ``holdings`` names what to import first."""
    if not store.read("admin/get_mind_presence", mind=mind)[0]["present"]:
        raise NotFoundError(f"mind {mind!r} does not exist: import its {holdings} first "
                            f"(graphmind import FILE --mind {mind})")
