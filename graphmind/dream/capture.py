"""Phase 1, capture: experiences are written as they happen, one small write each, no LLM.

An experience without an id gets ``exp-<UTC time>-<random>``; without a timestamp, the
capture time. Session metadata (puzzle difficulty, duration, ...) is attached to each
experience as ``session_<key>`` properties.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pydantic

from graphmind.errors import ConflictError, ValidationError
from graphmind.models import Experience
from graphmind.models.base import INPUT, first_error, oversize, split_dates


def experience_row(
    mind: str,
    experience: Experience | Mapping[str, Any],
    *,
    session_id: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    now: datetime | None = None,
    max_property_bytes: int | None = None,
) -> dict[str, Any]:
    """The ``import/upsert_memories`` row of one experience, validated; ValidationError if bad
    (a text property over ``max_property_bytes`` in UTF-8 among them, as import refuses it)."""
    now = now or datetime.now(UTC)
    if isinstance(experience, Experience):
        data = {**experience.properties(), "id": experience.id}
    elif isinstance(experience, Mapping):
        data = dict(experience)
    else:
        raise ValidationError(
            f"an experience is a dict of its fields or an Experience, not {type(experience).__name__}",
            field="experience",
        )
    data.setdefault("id", f"exp-{now:%Y%m%dT%H%M%S%f}-{secrets.token_hex(2)}")
    data.setdefault("timestamp", now)
    if session_id is not None:
        data["session_id"] = session_id
    for key, value in (metadata or {}).items():
        if not key.isidentifier():
            raise ValidationError(f"session metadata key {key!r} is not a property name", field="metadata")
        data[f"session_{key}"] = value
    try:
        node = Experience.model_validate(data, context=INPUT)
    except pydantic.ValidationError as exc:
        field, message = first_error(exc)
        raise ValidationError(
            f"the experience is invalid: {field or 'value'}: {message}", field=field or "experience"
        ) from None
    props, dates = split_dates(node.properties())
    if max_property_bytes is not None:
        for name, value in props.items():
            if reason := oversize(value, max_property_bytes):
                raise ValidationError(f"the experience is invalid: {name}: {reason}", field=name)
    return {"uid": f"{mind}:{node.id}", "id": node.id, "label": Experience.LABEL, "props": props, "dates": dates}


def experience_rows(mind: str, experiences: Iterable[Experience | Mapping[str, Any]], **kwargs: Any) -> list[dict]:
    rows = [experience_row(mind, e, **kwargs) for e in experiences]
    ids = [r["id"] for r in rows]
    if len(set(ids)) != len(ids):
        raise ValidationError("two experiences of one batch share an id", field="id")
    return rows


@dataclass(frozen=True)
class Captured:
    """What one capture did: the experience's ``id``, and whether this call stored it
    (``created`` False: the same experience was stored under its id already, a retry)."""

    id: str
    created: bool


CONTENT_FIELDS = ("description", "outcome", "kind", "strategy_used", "importance", "confidence", "impact", "session_id")
"""What a caller says of an experience: a capture again under its id must say the same."""


def named_ids(experiences: Iterable[Experience | Mapping[str, Any]]) -> set[str]:
    """The ids the caller gave (an Experience always has one; a dict may leave it out)."""
    return {
        str(e.id if isinstance(e, Experience) else e["id"])
        for e in experiences
        if isinstance(e, Experience) or "id" in e
    }


def untaken(mind: str, rows: list[dict[str, Any]], stored: Mapping[str, bool]) -> list[dict[str, Any]]:
    """``rows`` without those already stored alike (``stored[id]`` True: a retried capture, not
    written again); ConflictError when an id names a memory with other content (False), which a
    capture never overwrites."""
    clash = sorted(i for i, same in stored.items() if not same)
    if clash:
        raise ConflictError(
            f"mind {mind!r} already holds a memory {clash[0]!r} with other content; capture the "
            "experience under another id (or none, and one is made)"
        )
    return [r for r in rows if r["id"] not in stored]
