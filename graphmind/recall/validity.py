"""Facts valid in time (pure): which memories recall sees ``as_of`` a date, and which it ranks
first by default.

A memory is visible at a date when it held then: from its ``valid_from`` (or, when none was
given, from when it happened, its ``timestamp``, else from when it was recorded, ``created_at``)
until its ``invalid_at`` (if set). A fact logged today with the date it became true is seen as
of that date (a new user's back-filled log was invisible as of its own dates; another's
notebook, imported with each entry's timestamp, was too).
Recall ``as_of`` a date shows only memories visible then. Without ``as_of``, recall sees
everything and prefers valid facts: a memory no longer (or not yet) valid now, or a pattern
or abstraction the dream ``invalidated``, pruned or retired, comes after every valid one among
the hits, saying why (``not_valid``); it is kept, never deleted, so what a superseded fact said
can still be found (``hits.with_replacements`` brings in what replaced it, and an outdated hit
nothing replaces is the first to give way when that needs room).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

from graphmind.errors import ValidationError
from graphmind.models.base import as_datetime

T = TypeVar("T")


def parse_as_of(value: object) -> datetime | None:
    """``value`` (a date-time or ISO-8601 text; a bare date is its start, naive is UTC) as an
    aware datetime; None for None; ValidationError for anything else."""
    if value is None:
        return None
    parsed = as_datetime(value.strip() if isinstance(value, str) else value)
    if parsed is None:
        raise ValidationError(f"as_of must be an ISO-8601 date or date-time, not {value!r}", field="as_of")
    return parsed


def visible_at(props: Mapping[str, Any], as_of: datetime) -> bool:
    """Whether a memory with these properties held at ``as_of``: from its valid_from, else
    its timestamp, else its created_at, until its invalid_at."""
    created, start, end = (as_datetime(props.get(k)) for k in ("created_at", "valid_from", "invalid_at"))
    happened = as_datetime(props.get("timestamp"))
    begun = start if start is not None else happened if happened is not None else created
    if begun is not None and begun > as_of:
        return False
    return end is None or end > as_of


def is_valid(props: Mapping[str, Any], when: datetime) -> bool:
    """Whether a memory holds at ``when``: inside its valid window, not a pattern the dream
    marked ``invalidated`` (a pattern invalidated before invalid_at existed has no date), nor a
    pattern or abstraction retired or pruned (``not_valid``)."""
    return not_valid(props, when) is None


def not_valid(props: Mapping[str, Any], when: datetime, *, now: bool = True) -> str | None:
    """Why a memory does not hold at ``when`` ("not valid since 2026-05-01 09:30 UTC", "valid
    only from ...", "invalidated by a dream", "retired: ..."), None when it holds (``is_valid``).
    A pattern's or abstraction's ``status`` (retired, pruned) is today's, so it counts only for
    ``now`` (recall without ``as_of``)."""
    if props.get("verification_status") == "invalidated" and props.get("invalid_at") is None:
        return "invalidated by a dream"
    if now and props.get("status") in RETIRED:
        return RETIRED[props["status"]]
    start, end = as_datetime(props.get("valid_from")), as_datetime(props.get("invalid_at"))
    if start is not None and start > when:
        return f"valid only from {moment(start)}"
    if end is not None and end <= when:
        return f"not valid since {moment(end)}"
    return None


RETIRED = {
    "retired": "retired: a later dream rebuilt the ladder without it",
    "pruned": "pruned by a dream (redundant or of low utility)",
}
"""A pattern's or abstraction's status that puts it out of use (kept for the record)."""


def moment(when: datetime) -> str:
    """A date-time to the minute, in UTC ("2026-05-01 09:30 UTC"): a change may be of today."""
    return when.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def prefer_valid(
    items: Sequence[T], props_of: Callable[[T], Mapping[str, Any]], when: datetime | None = None
) -> list[T]:
    """``items`` with the valid ones (at ``when``, default now) first, each group in its order."""
    when = when or datetime.now(UTC)
    valid = [x for x in items if is_valid(props_of(x), when)]
    if len(valid) == len(items):
        return list(items)
    kept = {id(x) for x in valid}
    return valid + [x for x in items if id(x) not in kept]


def node_validity(node: Any) -> dict[str, Any]:
    """The properties of a model node ``is_valid`` reads."""
    return {
        "valid_from": getattr(node, "valid_from", None),
        "invalid_at": getattr(node, "invalid_at", None),
        "verification_status": getattr(node, "verification_status", None),
        "status": getattr(node, "status", None),
    }
