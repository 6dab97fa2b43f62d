"""Export of one mind as JSON Lines, in the import format, paged so memory stays flat."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date, datetime, time
from typing import Any

from graphmind.store import GraphStore
from graphmind.store.records import exported_properties

PAGE = 2000


def export_lines(store: GraphStore, mind: str, page: int = PAGE) -> Iterator[str]:
    """Every node (id order), then every relationship, of ``mind``: one JSON text each."""
    after = ""
    while True:
        rows = store.read("export/list_nodes", mind=mind, after=after, limit=page)
        for row in rows:
            yield _dump({"type": "node", "label": row["label"], "id": row["id"],
                         "properties": exported_properties(row["props"])})
        if len(rows) < page:
            break
        after = rows[-1]["id"]
    after = ""
    while True:
        rows = store.read("export/list_edges", mind=mind, after=after, limit=page)
        for row in rows:
            if row["rel"] is not None:
                yield _dump({"type": "edge", "rel": row["rel"], "from": row["from"], "to": row["to"],
                             "properties": dict(sorted((row["props"] or {}).items()))})
        sources = {row["from"] for row in rows}
        if len(sources) < page:
            break
        after = max(sources)


def _dump(item: dict[str, Any]) -> str:
    return json.dumps(item, ensure_ascii=False, default=_json_value)


def _json_value(value: Any) -> str:
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    raise TypeError(f"cannot export a value of type {type(value).__name__}")
