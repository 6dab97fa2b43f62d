"""Export of one mind as JSON Lines, in the import format, streamed from the server."""

from __future__ import annotations

import json
from collections.abc import Generator
from datetime import date, datetime, time
from typing import Any

from graphmind.store import GraphStore
from graphmind.store.records import exported_properties


def export_lines(store: GraphStore, mind: str) -> Generator[str, None, None]:
    """Every node (id order), then every relationship, of ``mind``: one JSON text each."""
    for row in store.stream("export/list_nodes", mind=mind):
        yield _dump(
            {"type": "node", "label": row["label"], "id": row["id"], "properties": exported_properties(row["props"])}
        )
    for row in store.stream("export/list_edges", mind=mind):
        yield _dump(
            {
                "type": "edge",
                "rel": row["rel"],
                "from": row["from"],
                "to": row["to"],
                "properties": dict(sorted(row["props"].items())),
            }
        )


def _dump(item: dict[str, Any]) -> str:
    return json.dumps(item, ensure_ascii=False, default=_json_value)


def _json_value(value: Any) -> str:
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    raise TypeError(f"cannot export a value of type {type(value).__name__}")
