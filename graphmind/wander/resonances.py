"""Resonances on the graph: a step's themes are matched to the mind's resonances by embedding
(cosine ≥ ``MATCH_COSINE``, across all sessions), then reinforced, or a new candidate is made.
Decay is computed from time at each observation: a resonance whose decayed strength fell below
the floor is invalidated (kept, never deleted). Events: wander.resonance.detected,
.strengthened and .confirmed."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np

from graphmind.embed import Embedder
from graphmind.models.base import as_datetime
from graphmind.store import GraphStore
from graphmind.wander._logic import current_status, reinforce
from graphmind.wander.events import EventBus

MATCH_COSINE = 0.75


@dataclass(frozen=True)
class Observed:
    id: str
    themes: list[str]
    strength: float
    occurrences: int
    status: str
    new: bool


@dataclass(frozen=True)
class ResonancePlan:
    observed: Observed
    rows: list[dict[str, Any]]
    was_candidate: bool
    others: list[dict[str, Any]]
    """The other live resonances (what a dwelling is shown as active)."""

    def announce(self, bus: EventBus | None) -> None:
        if bus is None:
            return
        o = self.observed
        payload = {"resonance_id": o.id, "themes": o.themes, "strength": o.strength, "occurrences": o.occurrences}
        if o.new:
            bus.publish("wander.resonance.detected", payload)
            return
        bus.publish("wander.resonance.strengthened", payload)
        if self.was_candidate and o.status == "confirmed":
            bus.publish("wander.resonance.confirmed", payload)


class Resonances:
    """One mind's resonances: themes matched across all its wander sessions, decaying unless reinforced."""

    def __init__(self, store: GraphStore, embedder: Embedder, mind: str, bus: EventBus | None = None):
        self._store, self._embedder, self._mind, self._bus = store, embedder, mind, bus
        self._vectors: dict[str, np.ndarray] = {}  # theme vectors by resonance id (they never change)

    def observe(
        self,
        themes: list[str],
        *,
        session_id: str | None = None,
        residue_id: str | None = None,
        now: datetime | None = None,
    ) -> Observed:
        """Match ``themes`` to a live resonance and reinforce it, else start a candidate."""
        plan = self.plan(themes, session_id=session_id, residue_id=residue_id, now=now)
        self._store.write("wander/upsert_resonances", mind=self._mind, rows=plan.rows)
        plan.announce(self._bus)
        return plan.observed

    def plan(
        self,
        themes: list[str],
        *,
        session_id: str | None = None,
        residue_id: str | None = None,
        now: datetime | None = None,
        known: tuple[list, list] | None = None,
    ) -> ResonancePlan:
        """What ``observe`` would write (``rows`` for wander/upsert_resonances) and announce;
        ``known``: ``live(now)`` when the caller read it already."""
        now = now or datetime.now(UTC)
        vector = self._embedder.embed(["; ".join(themes)])[0]
        live, faded = known or self.live(now)
        best = max(live, key=lambda r: float(np.dot(r["vector"], vector)), default=None)
        rows = [self._row(r["id"], {"status": "invalidated"}) for r in faded]
        if best is not None and float(np.dot(best["vector"], vector)) >= MATCH_COSINE:
            strength, count, status = reinforce(
                best["strength"], best["occurrences"], best["decay_rate"], best["days"], best["status"]
            )
            observed = Observed(best["id"], best["themes"], strength, count, status, False)
            rows.append(
                self._row(best["id"], {"strength": strength, "occurrences": count, "status": status}, now, residue_id)
            )
        else:
            new_id = f"resonance-{secrets.token_hex(4)}"
            observed = Observed(new_id, list(themes), 1.0, 1, "candidate", True)
            rows.append(
                self._row(
                    new_id,
                    {
                        "themes": list(themes),
                        "strength": 1.0,
                        "occurrences": 1,
                        "status": "candidate",
                        "decay_rate": 0.1,
                        "session_id": session_id,
                        "theme_vector": [round(float(x), 6) for x in vector],
                    },
                    now,
                    residue_id,
                )
            )
        return ResonancePlan(
            observed,
            rows,
            best is not None and best["status"] == "candidate",
            [r for r in live if r["id"] != observed.id],
        )

    def live(self, now: datetime) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """(live, faded) resonances of the mind, with ``days`` since last reinforced and ``vector``."""
        live, faded = [], []
        for r in self._store.read("wander/list_resonances", mind=self._mind, known=list(self._vectors)):
            last = as_datetime(r["last_reinforced_at"]) or now
            days = max(0.0, (now - last).total_seconds() / 86400)
            if r["theme_vector"] is not None:
                self._vectors[r["id"]] = np.asarray(r["theme_vector"], dtype=np.float32)
            item = {**r, "days": days, "vector": self._vectors.get(r["id"], np.zeros(0, dtype=np.float32))}
            if current_status(r["strength"], r["decay_rate"], days, r["status"]) == "invalidated":
                faded.append(item)
            elif len(item["vector"]):
                live.append(item)
        return live, faded

    def _row(
        self, rid: str, props: dict[str, Any], reinforced: datetime | None = None, residue: str | None = None
    ) -> dict[str, Any]:
        return {
            "uid": f"{self._mind}:{rid}",
            "id": rid,
            "props": {k: v for k, v in props.items() if v is not None},
            "reinforced_at": reinforced.isoformat() if reinforced else None,
            "residue": f"{self._mind}:{residue}" if residue else None,
        }
