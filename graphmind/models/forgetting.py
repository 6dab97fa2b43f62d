"""The record a ``forget`` leaves: which memories went and what went with them, never their text."""

from __future__ import annotations

from typing import ClassVar

from graphmind.models.base import Count, GraphNode, Kind, Timestamp


class ForgetRun(GraphNode):
    """One ``graphmind forget``: the ids of the memories deleted on request and the counts of
    what went with them. It holds ids and counts only, never the removed text."""

    LABEL: ClassVar[str] = "ForgetRun"
    KIND: ClassVar[Kind] = "run"
    forgotten: list[str] = []
    """The ids of the memories deleted."""
    cascade: bool = False
    edges: Count = 0
    """Relationships deleted with the memories."""
    removed: list[str] = []
    """Ids of derived nodes the cascade removed (they lost their support)."""
    unverified: list[str] = []
    """Ids of derived nodes the cascade kept but flagged for verification again."""
    scrubbed: Count = 0
    """Properties of other nodes where a verbatim copy of the forgotten text was replaced."""
    finished_at: Timestamp | None = None


FORGETTING_TYPES: tuple[type[GraphNode], ...] = (ForgetRun,)
