"""The import format's field reference, rendered from the models (docs/import-format.md holds
it between two markers, and a test keeps the two the same)."""

from __future__ import annotations

import types
import typing
from datetime import datetime
from typing import Any

from graphmind.models.base import Count, GraphNode, NodeId, Timestamp, Unit
from graphmind.models.registry import NODE_TYPES

BEGIN, END = "<!-- fields: begin (generated from graphmind/models) -->", "<!-- fields: end -->"
COMMON = ("id", "created_at", "text", "embedding", "hits", "last_hit_at", "valid_from", "invalid_at")
"""Fields every label has (listed once, not under each label)."""


def field_reference() -> str:
    """One section per label: what it is for, its kind, and a table of its own fields."""
    parts = [BEGIN, "", _table(next(iter(NODE_TYPES.values())), COMMON, "Every label"), ""]
    for label, model in NODE_TYPES.items():
        kind = "run record (`:Run`)" if model.KIND == "run" else "memory (`:Memory`)"
        recalled = " Recall leaves it out unless asked for by label." if model.WORKING else ""
        text = f" Its text (embedded, searched): {', '.join(model.TEXT_FIELDS)}." if model.TEXT_FIELDS else ""
        doc = " ".join((model.__doc__ or "").split()) if model.__doc__ != GraphNode.__doc__ else ""
        own = [name for name in model.model_fields if name not in COMMON]
        parts += [
            f"### {label}",
            "",
            f"{doc + ' ' if doc else ''}A {kind}.{text}{recalled}",
            "",
            _table(model, own, label),
            "",
        ]
    return "\n".join([*parts, END])


def _table(model: type[GraphNode], names: typing.Iterable[str], label: str) -> str:
    rows = ["| field | type | required |", "|---|---|---|"]
    for name in names:
        info = model.model_fields[name]
        rows.append(f"| `{name}` | {_type(info.annotation)} | {'yes' if info.is_required() else ''} |")
    return "\n".join(rows) if len(rows) > 2 else f"({label} has no fields of its own.)"


def _type(annotation: Any) -> str:
    """A field's type in words: "number 0..1", "list of string", "one of `a`, `b`"."""
    for alias, words in (
        (Unit, "number 0..1"),
        (Count, "integer >= 0"),
        (NodeId, "string without spaces"),
        (Timestamp, "date-time (ISO-8601)"),
    ):
        if annotation == alias:
            return words
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type(arg) for arg in args if arg is not type(None))
    if origin is typing.Literal:
        return "one of " + ", ".join(f"`{arg}`" for arg in args)
    if origin is list:
        return f"list of {_type(args[0])}"
    if origin is typing.Annotated:
        return _type(args[0])
    return _PLAIN.get(annotation, getattr(annotation, "__name__", str(annotation)))


_PLAIN: dict[Any, str] = {
    str: "string",
    int: "integer",
    float: "number",
    bool: "boolean",
    datetime: "date-time (ISO-8601)",
}
