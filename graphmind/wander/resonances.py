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
from graphmind.store import GraphStore
from graphmind.models.base import as_datetime
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


class Resonances:
    def __init__(self, store: GraphStore, embedder: Embedder, mind: str, bus: EventBus | None = None):
        self._store, self._embedder, self._mind, self._bus = store, embedder, mind, bus

    def observe(self, themes: list[str], *, session_id: str | None = None, residue_id: str | None = None,
                now: datetime | None = None) -> Observed:
        """Match ``themes`` to a live resonance and reinforce it, else start a candidate."""
        now = now or datetime.now(UTC)
        vector = self._embedder.embed(["; ".join(themes)])[0]
        live, faded = self._live(now)
        best = max(live, key=lambda r: float(np.dot(r["vector"], vector)), default=None)
        rows = [self._row(r["id"], {"status": "invalidated"}) for r in faded]
        if best is not None and float(np.dot(best["vector"], vector)) >= MATCH_COSINE:
            strength, count, status = reinforce(best["strength"], best["occurrences"], best["decay_rate"],
                                                best["days"], best["status"])
            observed = Observed(best["id"], best["themes"], strength, count, status, False)
            rows.append(self._row(best["id"], {"strength": strength, "occurrences": count, "status": status},
                                  now, residue_id))
        else:
            new_id = f"resonance-{secrets.token_hex(4)}"
            observed = Observed(new_id, list(themes), 1.0, 1, "candidate", True)
            rows.append(self._row(new_id, {"themes": list(themes), "strength": 1.0, "occurrences": 1,
                                           "status": "candidate", "decay_rate": 0.1, "session_id": session_id,
                                           "theme_vector": [round(float(x), 6) for x in vector]}, now, residue_id))
        self._store.write("wander/upsert_resonances", mind=self._mind, rows=rows)
        self._announce(observed, best)
        return observed

    def _live(self, now: datetime) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        live, faded = [], []
        for r in self._store.read("wander/list_resonances", mind=self._mind):
            last = as_datetime(r["last_reinforced_at"]) or now
            days = max(0.0, (now - last).total_seconds() / 86400)
            item = {**r, "days": days, "vector": np.asarray(r["theme_vector"] or [], dtype=np.float32)}
            if current_status(r["strength"], r["decay_rate"], days, r["status"]) == "invalidated":
                faded.append(item)
            elif len(item["vector"]):
                live.append(item)
        return live, faded

    def _row(self, rid: str, props: dict[str, Any], reinforced: datetime | None = None,
             residue: str | None = None) -> dict[str, Any]:
        return {"uid": f"{self._mind}:{rid}", "id": rid, "props": {k: v for k, v in props.items() if v is not None},
                "reinforced_at": reinforced.isoformat() if reinforced else None,
                "residue": f"{self._mind}:{residue}" if residue else None}

    def _announce(self, observed: Observed, before: dict[str, Any] | None) -> None:
        if self._bus is None:
            return
        payload = {"resonance_id": observed.id, "themes": observed.themes, "strength": observed.strength,
                   "occurrences": observed.occurrences}
        if observed.new:
            self._bus.publish("wander.resonance.detected", payload)
            return
        self._bus.publish("wander.resonance.strengthened", payload)
        if before is not None and before["status"] == "candidate" and observed.status == "confirmed":
            self._bus.publish("wander.resonance.confirmed", payload)

