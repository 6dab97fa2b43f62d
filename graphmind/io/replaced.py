"""After an import: the older memories its ``SUPERSEDES`` / ``CONTRADICTS`` edges name get the
``invalid_at`` a capture would have given them (``import/mark_replaced``), so an edge alone in
a file does what ``graphmind capture --supersedes`` does. An older memory that already carries
an ``invalid_at`` keeps it: export writes both, and a round trip changes nothing. The dream's
and a wander's CONTRADICTS edges (from a Pattern, Abstraction or Locus) replace nothing."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from graphmind.io.lines import EdgeLine
from graphmind.store import GraphStore

REPLACING = frozenset({"SUPERSEDES", "CONTRADICTS"})
BATCH = 5_000


def replacing(edge: EdgeLine) -> tuple[str, str, int] | None:
    """(newer id, older id, line) of a replacing edge line, kept in place of the whole line."""
    return (edge.from_id, edge.to_id, edge.line) if edge.rel in REPLACING else None


def mark_replaced(
    store: GraphStore, mind: str, pairs: Sequence[tuple[str, str, int]], *, skip: Collection[int] = ()
) -> int:
    """Give the older memory of each (newer id, older id, line) of ``pairs`` its ``invalid_at``,
    where the edge between them is one a capture would have made (``skip``: lines refused);
    how many were marked."""
    rows = [{"new": f"{mind}:{new}", "old": f"{mind}:{old}"} for new, old, line in pairs if line not in skip]
    marked = 0
    for start in range(0, len(rows), BATCH):
        marked += store.write("import/mark_replaced", mind=mind, rows=rows[start : start + BATCH])[0]["marked"]
    return marked
