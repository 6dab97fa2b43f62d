"""Wander sessions on the graph: create, get, list, update, change status, delete.

A session's configuration is the spec's (seed concept, attractor, allowed / forbidden
domains, fence concepts, ``max_drift_distance`` 0.8, ``max_steps`` 1000,
``cloud_budget_cents`` 500, temperature 0.7, ``human_checkpoint_frequency`` 50), validated by
the ``WanderSession`` model. Status changes follow ``_logic.transition``; deleting a session
removes its own loci, residues, warm memory and trace, never cross-session resonances or
crystals.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

import pydantic

from graphmind.errors import NotFoundError, ValidationError
from graphmind.models import WanderSession
from graphmind.store import GraphStore
from graphmind.models.base import first_error, split_dates
from graphmind.store.records import node_to_model
from graphmind.wander._logic import transition

SETTABLE = frozenset({"name", "attractor", "allowed_domains", "forbidden_domains", "fence_concepts",
                      "fence_excluded", "rng_seed", "hot_memory_limit", "dweller", "max_drift_distance", "max_steps",
                      "temperature", "cloud_budget_cents",
                      "human_checkpoint_frequency"})

ENGINE_STATE = frozenset({"seed_locus_id", "current_locus_id", "forced_locus_id", "crystals_formed",
                          "cloud_spent_cents"})


class WanderSessions:
    """The wander sessions of one mind."""

    def __init__(self, store: GraphStore, mind: str):
        self._store, self._mind = store, mind

    def create(self, seed_concept: str, **config: Any) -> WanderSession:
        _check_settable(config)
        session_id = f"wander-{datetime.now(UTC):%Y%m%dT%H%M%S}-{secrets.token_hex(3)}"
        session = _validated({"id": session_id, "seed_concept": seed_concept, "status": "active",
                              "steps_completed": 0, "cloud_spent_cents": 0.0, **config})
        return self._write(session)

    def get(self, session_id: str) -> WanderSession:
        rows = self._store.read("wander/get_session", mind=self._mind, id=session_id)
        if not rows:
            raise NotFoundError(f"mind {self._mind!r} has no wander session {session_id!r}")
        return _model(rows[0])

    def list(self, status: str | None = None) -> list[WanderSession]:
        return [_model(r) for r in self._store.read("wander/list_sessions", mind=self._mind, status=status)]

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
        rows = self._store.write("wander/mark_session_status", mind=self._mind, id=session_id,
                                 expected=current.status, status=status, reason=reason)
        if not rows:
            raise ValidationError(f"wander session {session_id!r} changed status meanwhile; try again", field="status")
        return _model(rows[0])

    def delete(self, session_id: str) -> dict[str, int]:
        rows = self._store.write("wander/delete_session", mind=self._mind, id=session_id)
        if not rows:
            raise NotFoundError(f"mind {self._mind!r} has no wander session {session_id!r}")
        return {"traces": rows[0]["traces"], "removed": rows[0]["removed"]}

    def _write(self, session: WanderSession) -> WanderSession:
        plain, _ = split_dates(session.properties())  # the dates it carries are set by its queries
        rows = self._store.write("wander/upsert_session", mind=self._mind,
                                 session={"uid": f"{self._mind}:{session.id}", "id": session.id, "props": plain})
        return _model(rows[0])


def _check_settable(settings: dict[str, Any]) -> None:
    unknown = sorted(set(settings) - SETTABLE)
    if unknown:
        raise ValidationError(f"{unknown[0]!r} is not a session setting (status changes go through "
                              "set_status)", field=unknown[0])


def _validated(data: dict[str, Any]) -> WanderSession:
    try:
        return WanderSession.model_validate(data)
    except pydantic.ValidationError as exc:
        where, message = first_error(exc)
        raise ValidationError(f"the wander session is invalid: {where or 'session'}: {message}",
                              field=where or "session") from None


def _model(row: dict[str, Any]) -> WanderSession:
    props = {k: v for k, v in row["props"].items() if k not in ("mind", "uid", "updated_at")}
    return node_to_model("WanderSession", props)  # type: ignore[return-value]
