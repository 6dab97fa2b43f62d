"""Plain-Python values from driver results, and node records back into models."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from graphmind.models import GraphNode, node_model

_TENANCY = frozenset({"mind", "uid"})  # set by graphmind from the mind, never part of a model
_STATE = frozenset({"embedding_pending"})  # bookkeeping of the embedding pass, not data
_HIDDEN = _TENANCY | _STATE  # never part of a model
_INTERNAL = _HIDDEN | {"id"}  # not exported: the line carries the id


_PLAIN = (float, int, str, bool, type(None))


def to_python(value: Any) -> Any:
    """Driver values (temporal types, lists, maps) as plain Python values."""
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, list):
        if value and type(value[0]) is float and all(type(v) is float for v in value):
            return value  # a vector: nothing to convert
        return [to_python(v) for v in value]
    if hasattr(value, "to_native"):
        return value.to_native()
    if isinstance(value, Mapping):
        return {k: to_python(v) for k, v in value.items()}
    return value


def node_to_model(label: str, properties: Mapping[str, Any]) -> GraphNode:
    """A stored row's properties (already plain Python) as its model; ``id`` is kept."""
    return node_model(label).model_validate({k: v for k, v in properties.items() if k not in _HIDDEN})


def exported_properties(properties: Mapping[str, Any]) -> dict[str, Any]:
    """A stored node's own properties, without the ones graphmind derives (mind, uid, id, flags)."""
    return {k: v for k, v in sorted(properties.items()) if k not in _INTERNAL}


def shown_properties(node: GraphNode) -> dict[str, Any]:
    """What a reader is shown of a node: its exported properties without vectors (the
    embedding, a pattern's centroid)."""
    props = exported_properties(node.model_dump(exclude_none=True))
    props.pop("embedding", None)
    props.pop("centroid", None)
    return props
