"""After an import: the older memories its ``SUPERSEDES`` / ``CONTRADICTS`` edges name get the
``invalid_at`` a capture would have given them (``import/mark_replaced``), so an edge alone in
a file does what ``graphmind capture --supersedes`` does. An older memory that already carries
an ``invalid_at`` keeps it: export writes both, and a round trip changes nothing. The dream's
and a wander's CONTRADICTS edges (from a Pattern, Abstraction or Locus) replace nothing.

The patterns built on an experience so marked, or on one whose ``invalid_at`` a node line of the
import changed (``restated``: graphmind/io/held.py), are then marked by the capture's own query,
in the same transaction (``memory/mark_unsupported_patterns``): stale, or invalidated when none
of their experiences holds, so the next dream extracts them again from what holds."""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping, Sequence

from graphmind.io.lines import EdgeLine
from graphmind.store import GraphStore
from graphmind.store.graph_store import Transaction

REPLACING = frozenset({"SUPERSEDES", "CONTRADICTS"})
BATCH = 5_000


def replacing(edge: EdgeLine) -> tuple[str, str, int] | None:
    """(newer id, older id, line) of a replacing edge line, kept in place of the whole line."""
    return (edge.from_id, edge.to_id, edge.line) if edge.rel in REPLACING else None


def mark_replaced(
    store: GraphStore,
    mind: str,
    pairs: Sequence[tuple[str, str, int]],
    *,
    skip: Collection[int] = (),
    restated: Mapping[str, int] | None = None,
) -> int:
    """Give the older memory of each (newer id, older id, line) of ``pairs`` its ``invalid_at``,
    where the edge between them is one a capture would have made (``skip``: lines refused), and
    mark the patterns built on those and on the ``restated`` experiences (uid → the line that
    restated it, unless refused) as a capture does; how many older memories were marked."""
    rows = [{"new": f"{mind}:{new}", "old": f"{mind}:{old}"} for new, old, line in pairs if line not in skip]
    olds = [uid for uid, line in (restated or {}).items() if line not in skip]
    batches = [rows[start : start + BATCH] for start in range(0, len(rows), BATCH)]
    if olds and not batches:
        batches = [[]]
    marked = 0
    for batch in batches:
        marked += store.write_transaction(functools.partial(_mark, mind=mind, rows=batch, restated=olds))
        olds = []
    return marked


def _mark(tx: Transaction, mind: str, rows: list[dict[str, str]], restated: list[str]) -> int:
    """One batch in one transaction (run again whole if the driver retries it)."""
    marked, olds = 0, list(restated)
    if rows:
        done = tx.run("import/mark_replaced", mind=mind, rows=rows)[0]
        marked, olds = done["marked"], olds + done["olds"]
    if olds:
        tx.run("memory/mark_unsupported_patterns", mind=mind, olds=olds)
    return marked
