"""Memory items for the pure-logic tests of rumination and the Context Object."""

from __future__ import annotations

from graphmind.prompts._models import MemoryItem


def memory(node_id: str, label: str, **props) -> MemoryItem:
    """A memory ``node_id`` of ``label`` whose text is its property values, in order."""
    return MemoryItem(id=node_id, label=label, text=" ".join(str(v) for v in props.values()), properties=props)
