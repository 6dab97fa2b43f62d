"""After an import: the older memories its ``SUPERSEDES`` / ``CONTRADICTS`` edges name get the
``invalid_at`` a capture would have given them (``import/mark_replaced``), so an edge alone in
a file does what ``graphmind capture --supersedes`` does. An older memory that already carries
an ``invalid_at`` keeps it: export writes both, and a round trip changes nothing."""

from __future__ import annotations

from collections.abc import Sequence

from graphmind.io.lines import EdgeLine
from graphmind.store import GraphStore

REPLACING = frozenset({"SUPERSEDES", "CONTRADICTS"})
BATCH = 5_000


def mark_replaced(store: GraphStore, mind: str, edges: Sequence[EdgeLine]) -> int:
    """Give the older memory of each of ``edges`` its ``invalid_at``; how many were marked."""
    rows = [{"new": f"{mind}:{e.from_id}", "old": f"{mind}:{e.to_id}"} for e in edges if e.rel in REPLACING]
    marked = 0
    for start in range(0, len(rows), BATCH):
        marked += store.write("import/mark_replaced", mind=mind, rows=rows[start : start + BATCH])[0]["marked"]
    return marked
