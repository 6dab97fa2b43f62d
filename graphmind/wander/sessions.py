"""Wander sessions on the graph: create, get, list (paged), show, update, change status, delete,
and what a session holds: its loci (paged) and crystals (or every session's).

A session's configuration is the spec's (seed concept, attractor, allowed / forbidden
domains, fence concepts, ``max_drift_distance`` 0.8, ``max_steps`` 1000,
``cloud_budget_cents`` 500, temperature 0.7, ``human_checkpoint_frequency`` 50), validated by
the ``WanderSession`` model. Status changes follow ``_logic.transition``; deleting a session
removes its own loci, residues, resonances, warm memory and trace (``session_id`` set), never
the mind's memories, the memory loci every session shares, other sessions' resonances or
crystals.
"""

from __future__ import annotations

import builtins
import secrets
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

import pydantic

from graphmind.errors import NotFoundError, ValidationError
from graphmind.models import WanderSession
from graphmind.models.base import first_error, split_dates
from graphmind.store import GraphStore
from graphmind.store.records import node_to_model
from graphmind.wander._logic import transition

SETTABLE = frozenset(
    {
        "name",
        "attractor",
        "allowed_domains",
        "forbidden_domains",
        "fence_concepts",
        "fence_excluded",
        "rng_seed",
        "hot_memory_limit",
        "dweller",
        "max_drift_distance",
        "max_steps",
        "temperature",
        "cloud_budget_cents",
        "human_checkpoint_frequency",
    }
)

MAX_PAGE = 1000
"""The most rows one page holds (and a page's size when no limit is given)."""


@dataclass(frozen=True)
class SessionPage:
    """One page of a mind's wander sessions."""

    sessions: list[WanderSession]
    total: int
    offset: int
    next_offset: int | None

    def as_dict(self) -> dict[str, Any]:
        return {
            "sessions": [s.model_dump(mode="json", exclude_none=True) for s in self.sessions],
            "total": self.total,
            "offset": self.offset,
            "next_offset": self.next_offset,
        }


@dataclass(frozen=True)
class CrystalPage:
    """One page of crystals (of one session, or of every session when ``session_id`` is None),
    newest first, each ``{id, insight, status, confidence, session_id, ..., evidence}``."""

    session_id: str | None
    crystals: list[dict[str, Any]]
    total: int
    offset: int
    next_offset: int | None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class LociPage:
    """One page of a session's loci: ``{id, concept, source_type, domains, tier, own, visits}``."""

    session_id: str
    loci: list[dict[str, Any]]
    total: int
    offset: int
    next_offset: int | None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


ENGINE_STATE = frozenset(
    {"seed_locus_id", "current_locus_id", "forced_locus_id", "crystals_formed", "cloud_spent_cents"}
)


class WanderSessions:
    """The wander sessions of one mind."""

    def __init__(self, store: GraphStore, mind: str):
        self._store, self._mind = store, mind

    def create(self, seed_concept: str, **config: Any) -> WanderSession:
        _check_settable(config)
        session_id = f"wander-{datetime.now(UTC):%Y%m%dT%H%M%S}-{secrets.token_hex(3)}"
        session = _validated(
            {
                "id": session_id,
                "seed_concept": seed_concept,
                "status": "active",
                "steps_completed": 0,
                "cloud_spent_cents": 0.0,
                **config,
            }
        )
        return self._write(session)

    def get(self, session_id: str) -> WanderSession:
        rows = self._store.read("wander/get_session", mind=self._mind, id=session_id)
        if not rows:
            raise NotFoundError(f"mind {self._mind!r} has no wander session {session_id!r}")
        return _model(rows[0])

    def list(self, status: str | None = None, *, limit: int | None = None, offset: int = 0) -> list[WanderSession]:
        """The sessions (all, or those with ``status``), newest first; ``limit`` / ``offset`` page."""
        return self.page(status, limit=limit, offset=offset).sessions

    def page(self, status: str | None = None, *, limit: int | None = None, offset: int = 0) -> SessionPage:
        """One page of the sessions, newest first: at most ``limit`` after skipping ``offset``,
        with the total and the offset of the next page (None on the last)."""
        limit, offset = _paging(limit, offset)
        rows = self._store.read("wander/list_sessions", mind=self._mind, status=status, offset=offset, limit=limit)
        total = rows[0]["total"] if rows else self._total_after(status, offset)
        return SessionPage([_model(r) for r in rows], total, offset, _next(offset, len(rows), total))

    def _total_after(self, status: str | None, offset: int) -> int:
        """The total when a page is empty (an offset past the end): ask for the first row."""
        if offset == 0:
            return 0
        rows = self._store.read("wander/list_sessions", mind=self._mind, status=status, offset=0, limit=1)
        return rows[0]["total"] if rows else 0

    def show(self, session_id: str) -> dict[str, Any]:
        """A session's configuration and state with what it holds: its own loci, residues,
        resonances, warm memory and crystals, and how many loci it visited."""
        session = self.get(session_id)
        counts = self._store.read("wander/count_session_nodes", mind=self._mind, id=session_id)
        return {**session.model_dump(mode="json", exclude_none=True), "holds": counts[0] if counts else {}}

    def loci(self, session_id: str, *, limit: int | None = None, offset: int = 0) -> LociPage:
        """The session's loci (those it made and the memory loci it visited), most visited first."""
        self.get(session_id)  # a NotFoundError for an unknown session
        limit, offset = _paging(limit, offset)
        rows = self._store.read("wander/list_session_loci", mind=self._mind, id=session_id, offset=offset, limit=limit)
        total = rows[0]["total"] if rows else 0
        return LociPage(session_id, [r["locus"] for r in rows], total, offset, _next(offset, len(rows), total))

    def crystals(self, session_id: str | None = None) -> builtins.list[dict[str, Any]]:
        """Every crystal of one session, or of every session of the mind (``None``), newest first,
        with their evidence ids (``crystal_page`` gives them a page at a time)."""
        if session_id is not None:
            self.get(session_id)
        rows = self._store.read("wander/list_crystals", mind=self._mind, session_id=session_id)
        return [_crystal(r) for r in rows]

    def crystal_page(
        self,
        session_id: str | None = None,
        *,
        status: str | None = None,
        min_confidence: float = 0.0,
        limit: int | None = None,
        offset: int = 0,
    ) -> CrystalPage:
        """One page of the crystals of a session (or of every session: ``None``), newest first,
        those with ``status`` (any if None) and at least ``min_confidence``: at most ``limit`` after
        skipping ``offset``, with the total and the offset of the next page (None on the last)."""
        if session_id is not None:
            self.get(session_id)
        if (
            isinstance(min_confidence, bool)
            or not isinstance(min_confidence, (int, float))
            or not 0 <= min_confidence <= 1
        ):
            raise ValidationError("min_confidence must be a number from 0 to 1", field="min_confidence")
        limit, offset = _paging(limit, offset)
        params = {"session_id": session_id, "status": status, "min_confidence": float(min_confidence)}
        rows = self._store.read("wander/list_crystals_page", mind=self._mind, offset=offset, limit=limit, **params)
        total = rows[0]["total"] if rows else self._crystals_after(params, offset)
        return CrystalPage(session_id, [_crystal(r) for r in rows], total, offset, _next(offset, len(rows), total))

    def _crystals_after(self, params: dict[str, Any], offset: int) -> int:
        """The total when a page is empty (an offset past the end): ask for the first row."""
        if offset == 0:
            return 0
        rows = self._store.read("wander/list_crystals_page", mind=self._mind, offset=0, limit=1, **params)
        return rows[0]["total"] if rows else 0

    def update(self, session_id: str, **changes: Any) -> WanderSession:
        """Change a session's configuration (not its status: see ``set_status``)."""
        _check_settable(changes)
        current = self.get(session_id)
        return self._write(_validated({**current.model_dump(exclude_none=True), **changes}))

    def record(self, session_id: str, **state: Any) -> WanderSession:
        """Record walk state (seed / current / forced locus, crystals formed): the engine's, not a
        researcher's, to set."""
        unknown = sorted(set(state) - ENGINE_STATE)
        if unknown:
            raise ValidationError(f"{unknown[0]!r} is not walk state", field=unknown[0])
        current = self.get(session_id)
        return self._write(_validated({**current.model_dump(exclude_none=True), **state}))

    def set_status(self, session_id: str, status: str, reason: str | None = None) -> WanderSession:
        """pause / resume / complete / abandon; an invalid transition is a ValidationError."""
        current = self.get(session_id)
        transition(current.status, status)
        rows = self._store.write(
            "wander/mark_session_status",
            mind=self._mind,
            id=session_id,
            expected=current.status,
            status=status,
            reason=reason,
        )
        if not rows:
            raise ValidationError(f"wander session {session_id!r} changed status meanwhile; try again", field="status")
        return _model(rows[0])

    def delete(self, session_id: str) -> dict[str, int]:
        """Delete a session with its own loci, residues, resonances, warm memory and trace
        (``removed``: nodes, ``traces``: steps); the mind's memories, the memory loci every
        session shares and the crystals stay."""
        rows = self._store.write("wander/delete_session", mind=self._mind, id=session_id)
        if not rows:
            raise NotFoundError(f"mind {self._mind!r} has no wander session {session_id!r}")
        return {"traces": rows[0]["traces"], "removed": rows[0]["removed"]}

    def _write(self, session: WanderSession) -> WanderSession:
        plain, _ = split_dates(session.properties())  # the dates it carries are set by its queries
        rows = self._store.write(
            "wander/upsert_session",
            mind=self._mind,
            session={"uid": f"{self._mind}:{session.id}", "id": session.id, "props": plain},
        )
        return _model(rows[0])


def _paging(limit: int | None, offset: int) -> tuple[int, int]:
    """(limit, offset), checked: a limit of 1 to MAX_PAGE (default MAX_PAGE), an offset ≥ 0."""
    limit = MAX_PAGE if limit is None else limit
    for name, value, low in (("limit", limit, 1), ("offset", offset, 0)):
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not low <= value <= (MAX_PAGE if name == "limit" else 2**31)
        ):
            raise ValidationError(
                f"{name} must be a whole number from {low}"
                + (f" to {MAX_PAGE}" if name == "limit" else "")
                + f", not {value!r}",
                field=name,
            )
    return limit, offset


def _crystal(row: dict[str, Any]) -> dict[str, Any]:
    props = {k: v for k, v in row["props"].items() if k not in ("mind", "uid", "embedding")}
    return {"id": row["id"], **props, "evidence": row["evidence"]}


def _next(offset: int, shown: int, total: int) -> int | None:
    return offset + shown if shown and offset + shown < total else None


def _check_settable(settings: dict[str, Any]) -> None:
    unknown = sorted(set(settings) - SETTABLE)
    if unknown:
        raise ValidationError(
            f"{unknown[0]!r} is not a session setting (status changes go through set_status)", field=unknown[0]
        )


def _validated(data: dict[str, Any]) -> WanderSession:
    try:
        return WanderSession.model_validate(data)
    except pydantic.ValidationError as exc:
        where, message = first_error(exc)
        raise ValidationError(
            f"the wander session is invalid: {where or 'session'}: {message}", field=where or "session"
        ) from None


def _model(row: dict[str, Any]) -> WanderSession:
    props = {k: v for k, v in row["props"].items() if k not in ("mind", "uid", "updated_at", "repl_state")}
    session = node_to_model("WanderSession", props)
    assert isinstance(session, WanderSession)  # the registry maps the label to this model
    return session
