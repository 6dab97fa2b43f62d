"""Experiences a pattern is built on are not rewritten by an import, as they are not by a capture.

A dream wrote a pattern's name, conditions and actions from its experiences (EXEMPLIFIES). An
import line that gives one of them other content (a field ``CONTENT_FIELDS`` names, the ones a
capture under a taken id must repeat) would leave the pattern stating what the mind no longer
holds, so the line is refused like an invalid one: under ``--strict`` nothing is written, with
one sentence naming it; under ``--skip-invalid`` the stored experience stays as it was. The way
to say that an experience changed is a new one that SUPERSEDES it (graphmind/io/replaced.py).

A line that only gives such an experience an ``invalid_at`` (export writes the older node with
its date beside the SUPERSEDES edge) is written: the experience stops holding then, and its
patterns are marked as a capture marks them (``restated``, passed to ``mark_replaced``).

Only experiences already in the mind and held by a pattern (``import/find_labels`` says which)
are compared, with one batched read per batch of them, so an import into a new mind, or of
nodes no pattern holds, makes no extra query.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from graphmind.dream.capture import CONTENT_FIELDS
from graphmind.io.lines import LineError, NodeLine
from graphmind.io.spill import Spill
from graphmind.models import node_model
from graphmind.store import GraphStore

_DEFAULTS = {
    name: info.default
    for name, info in node_model("Experience").model_fields.items()
    if name in CONTENT_FIELDS and not info.is_required() and info.default is not None
}


class _Plan(Protocol):
    node_rows: Spill
    held: set[str]
    bad: set[int]

    def refuse(self, error: LineError) -> None: ...


def check_held(store: GraphStore, mind: str, plan: _Plan, batch_size: int) -> dict[str, int]:
    """Refuse the lines of ``plan`` that change an experience a pattern holds; the uids of the
    held experiences whose ``invalid_at`` the lines change (their patterns are to be marked once
    the line is written), each with its line."""
    if not plan.held:
        return {}
    restated: dict[str, int] = {}
    lines: dict[str, int] = {}
    rows: list[dict[str, Any]] = []
    for batch in plan.node_rows.batches():
        for node in batch:
            if node.id in plan.held and node.line not in plan.bad:
                lines[node.id] = node.line
                rows.append(_row(mind, node))
            if len(rows) >= batch_size:
                restated |= _check(store, mind, plan, rows, lines)
                rows = []
    if rows:
        restated |= _check(store, mind, plan, rows, lines)
    return restated


def as_written(batch: Sequence[NodeLine], plan: _Plan) -> list[NodeLine]:
    """The lines of ``batch`` not refused, a held experience's without the content fields its
    line leaves at their default: those are kept as stored, not reset ("kind")."""
    return [
        node if node.id not in plan.held else NodeLine(node.line, node.id, node.label, _given(node.props), node.dates)
        for node in batch
        if node.line not in plan.bad
    ]


def _given(props: dict[str, Any]) -> dict[str, Any]:
    """``props`` without a field at its model's default, taken as not given ("kind": "move" of
    a line that restates an older experience with its ``invalid_at`` and leaves ``kind`` out)."""
    return {k: v for k, v in props.items() if not (k in _DEFAULTS and v == _DEFAULTS[k])}


def _row(mind: str, node: NodeLine) -> dict[str, Any]:
    given = _given(node.props)
    props = {k: given[k] for k in CONTENT_FIELDS if k in given}
    return {"uid": f"{mind}:{node.id}", "id": node.id, "props": props, "invalid_at": node.dates.get("invalid_at")}


def _check(
    store: GraphStore, mind: str, plan: _Plan, rows: list[dict[str, Any]], lines: dict[str, int]
) -> dict[str, int]:
    restated = {}
    for found in store.read("import/find_held_changes", mind=mind, rows=rows):
        if found["changed"]:
            fields = sorted(found["changed"], key=CONTENT_FIELDS.index)
            plan.refuse(
                LineError(
                    lines[found["id"]],
                    fields[0],
                    f"mind {mind!r} already holds experience {found['id']!r} with another {fields[0]}, and "
                    f"pattern {found['pattern']!r} is built on it; import the new one under another id, "
                    "with a SUPERSEDES edge to the old one if it replaces it",
                )
            )
        elif found["restated"]:
            restated[found["uid"]] = lines[found["id"]]
    return restated
