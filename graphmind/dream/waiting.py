"""``Mind.waiting``: the experiences no pattern holds yet, because no dream has read them or
because the dreams that read them found too few like them and left them to wait
(``compress``: deferred). What a researcher checks after a night's dream: what it did not place."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from graphmind.errors import ValidationError
from graphmind.store import GraphStore

MAX_LIMIT = 10_000


class WaitingExperience(BaseModel):
    """One experience that waits for a pattern."""

    model_config = ConfigDict(frozen=True)

    id: str
    description: str
    outcome: str | None = None
    kind: str | None = None
    session_id: str | None = None
    timestamp: str | None = None
    runs: int = 0
    """How many dream runs read it and left it to wait (0: none has read it yet)."""
    last_deferred: str | None = None
    """When the last of those runs started."""
    invalid: bool = False
    """Superseded or contradicted since its capture: a dream words no pattern from it."""


class Waiting(BaseModel):
    """The experiences of a mind that wait for a pattern, oldest first (at most ``limit``)."""

    model_config = ConfigDict(frozen=True)

    mind: str
    total: int
    """How many wait in all (``experiences`` holds the oldest ``limit`` of them)."""
    unread: int
    """Of the ``total``, those no dream has read yet."""
    experiences: list[WaitingExperience]

    def as_dict(self) -> dict[str, Any]:
        return self.model_dump()


def list_waiting(store: GraphStore, mind: str, *, limit: int = 50, session: str | None = None) -> Waiting:
    """The experiences of ``mind`` (of ``session``, when given) that wait for a pattern."""
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise ValidationError(f"limit must be a whole number from 1 to {MAX_LIMIT}, not {limit!r}")
    rows = store.read("dream/list_waiting", mind=mind, session=session, limit=limit)
    counts = {"total": rows[0]["total"], "unread": rows[0]["unread"]} if rows else {"total": 0, "unread": 0}
    experiences = [
        WaitingExperience(**{k: v for k, v in r.items() if k not in counts}) for r in rows if r["id"] is not None
    ]
    return Waiting(mind=mind, **counts, experiences=experiences)
