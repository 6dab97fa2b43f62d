"""``Wander``: the handle a researcher holds on one session (``Mind.wander``, ``graphmind wander``).

A run (``run(n)``) takes up to n steps and stops early, with the reason, when:
- the session reaches ``max_steps`` (it is then completed);
- the budget cannot pay for the next call (paused, ``budget exhausted``);
- the circuit breaker trips on a real stall: 3 consecutive failed steps (an LLM provider
  error), or 5 consecutive returns to the seed ("5 fence hits in a row" when something was
  found but fenced out, else "stalled: …") (paused, with the reason; ``wander.circuit.tripped``);
- a human checkpoint is due, every ``human_checkpoint_frequency`` steps (paused until resumed).
Every 10 steps and at the end of a run, the oldest hot loci beyond ``hot_memory_limit`` (100)
go to warm memory.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from graphmind.errors import NotFoundError, ProviderError, StoreUnavailableError, ValidationError
from graphmind.models import WanderSession
from graphmind.prompts._models import MemoryItem
from graphmind.prompts.wander import LocusItem, ResonanceItem
from graphmind.store import GraphStore
from graphmind.wander import _logic as rules
from graphmind.wander.budget import Budget, BudgetExhausted
from graphmind.wander.crystals import CrystalResult, Crystals, residue_item
from graphmind.wander.events import EventBus
from graphmind.wander.sessions import WanderSessions
from graphmind.wander.space import IdeaSpace
from graphmind.wander.tiers import compress_to_warm
from graphmind.wander.walker import StepResult, Walker, WalkState

log = logging.getLogger(__name__)

COMPRESS_EVERY = 10

if TYPE_CHECKING:
    from graphmind.wander.map import MapReport


@dataclass(frozen=True)
class RunReport:
    """One run of a session. ``crystals_formed`` counts crystals that held under validation
    (active); those that did not are stored as invalidated and only listed in ``steps``."""

    session_id: str
    steps_completed: int
    crystals_formed: int
    stopped_reason: str
    cost_cents: float
    status: str
    total_steps: int
    spent_cents: float
    steps: tuple[StepResult, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "steps_completed": self.steps_completed,
            "crystals_formed": self.crystals_formed,
            "stopped_reason": self.stopped_reason,
            "cost_cents": self.cost_cents,
            "status": self.status,
            "total_steps": self.total_steps,
            "spent_cents": self.spent_cents,
        }


class Wander:
    """One wander session of one mind: step, run, pause, resume, stop, inspect, intervene."""

    def __init__(
        self,
        session_id: str,
        *,
        store: GraphStore,
        sessions: WanderSessions,
        space: IdeaSpace,
        walker: Walker,
        crystals: Crystals,
        mind: str,
        bus: EventBus | None = None,
    ):
        self.id, self._store, self._sessions, self._space = session_id, store, sessions, space
        self._walker, self._crystals, self._mind, self._bus = walker, crystals, mind, bus
        self.last_run: RunReport | None = None

    # -- lifecycle ------------------------------------------------------------------------

    @staticmethod
    def create(
        sessions: WanderSessions, space: IdeaSpace, seed: str, bus: EventBus | None = None, **config: Any
    ) -> WanderSession:
        """A new session with its SEED locus, grounded in the nearest locus of the idea space when
        that one is related (cosine ≥ 0.3): its domains, role and memories."""
        if not isinstance(seed, str) or not seed.strip():
            raise ValidationError("a wander needs a seed concept (--seed TEXT)", field="seed")
        config.setdefault("rng_seed", secrets.randbelow(2**31))
        session = sessions.create(seed.strip(), **config)
        space.sync()
        seed_id = space.add_session_locus(session.id, session.seed_concept, "SEED", grounded=True)
        session = sessions.record(session.id, seed_locus_id=seed_id, current_locus_id=seed_id)
        if bus is not None:
            bus.publish("wander.session.created", {"session_id": session.id, "seed_concept": session.seed_concept})
        return session

    @property
    def session(self) -> WanderSession:
        return self._sessions.get(self.id)

    def pause(self, reason: str | None = None) -> WanderSession:
        return self._status("paused", reason or "paused by a human", "wander.session.paused")

    def resume(self) -> WanderSession:
        return self._status("active", None, "wander.session.resumed")

    def stop(self) -> WanderSession:
        return self._status("completed", None, "wander.session.completed")

    def _status(self, status: str, reason: str | None, subject: str) -> WanderSession:
        session = self._sessions.set_status(self.id, status, reason)
        self._publish(subject, {"session_id": self.id, "reason": reason})
        return session

    # -- walking --------------------------------------------------------------------------

    def step(self) -> StepResult | None:
        report = self.run(1)
        return report.steps[0] if report.steps else None

    def run(self, steps: int, *, on_step: Callable[[StepResult], None] | None = None) -> RunReport:
        """Up to ``steps`` steps; when Neo4j goes away, the error names the session and its last step.
        ``on_step`` sees each step once it is committed; what it raises ends the run there (a
        cancelled job does), the steps before it kept."""
        if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
            raise ValidationError(f"steps must be a whole number of at least 1, not {steps!r}", field="steps")
        taken: list[StepResult] = []
        try:
            return self._run(steps, taken, on_step)
        except StoreUnavailableError as exc:
            where = f"after step {taken[-1].step_number}" if taken else "before its next step"
            raise StoreUnavailableError(
                f"wander session {self.id} of mind {self._mind!r} was interrupted {where}: {exc}; then "
                f"continue it with 'graphmind wander run --session {self.id} --mind {self._mind} --steps N'",
                query=exc.query,
            ) from exc

    def _run(self, steps: int, taken: list[StepResult], on_step: Callable[[StepResult], None] | None) -> RunReport:
        session = self.session
        if session.status != "active":
            return self._report(session, [], f"the session is {session.status}", 0.0)
        self._space.sync()
        if not self._space.memory_count:
            return self._report(session, [], "the mind has no memories to wander through", 0.0)
        state = self._load(session)
        budget = Budget(float(session.cloud_budget_cents), float(session.cloud_spent_cents or 0.0))
        start_spent, breaker = budget.spent_cents, rules.CircuitBreaker()
        try:
            reason = self._walk(state, budget, breaker, taken, steps, on_step)
        finally:
            if budget.spent_cents != (state.session.cloud_spent_cents or 0.0):
                # a step that stopped after paying for a call: what was spent stays on the record
                self._sessions.record(self.id, cloud_spent_cents=budget.spent_cents)
        compress_to_warm(self._store, self._mind, self.id, limit=session.hot_memory_limit)
        return self._report(self.session, taken, reason, round(budget.spent_cents - start_spent, 6))

    def _walk(
        self,
        state: WalkState,
        budget: Budget,
        breaker: rules.CircuitBreaker,
        taken: list[StepResult],
        steps: int,
        on_step: Callable[[StepResult], None] | None,
    ) -> str:
        reason = "steps done"
        while len(taken) < steps:
            if (state.session.steps_completed or 0) >= state.session.max_steps:
                self.stop()
                reason = f"max_steps reached ({state.session.max_steps})"
                break
            try:
                result = self._walker.step(state, budget)
            except BudgetExhausted as exc:
                self.pause(f"budget exhausted: {exc}")
                reason = "budget exhausted"
                break
            except ProviderError as exc:
                tripped = breaker.record(failed=True)
                if tripped:
                    reason = self._trip(tripped, str(exc))
                    break
                continue
            taken.append(result)
            if on_step is not None:
                on_step(result)
            tripped = breaker.record(fence_hit=result.fence_hit, returned=result.returned)
            done = state.session.steps_completed or 0
            if done % COMPRESS_EVERY == 0:
                compress_to_warm(self._store, self._mind, self.id, limit=state.session.hot_memory_limit)
            if tripped:
                reason = self._trip(tripped, "the walk kept running into the fence")
                break
            if rules.checkpoint_due(done, state.session.human_checkpoint_frequency) and len(taken) < steps:
                self.pause(f"human checkpoint after step {done}")
                reason = "human checkpoint"
                break
        return reason

    def _trip(self, why: str, detail: str) -> str:
        self.pause(f"circuit breaker: {why} ({detail})")
        self._publish("wander.circuit.tripped", {"session_id": self.id, "reason": why, "detail": detail})
        return f"circuit breaker: {why}"

    def _load(self, session: WanderSession) -> WalkState:
        seed = self._space.get(session.seed_locus_id or "")
        if seed is None:
            raise NotFoundError(f"wander session {session.id!r} has lost its seed locus")
        current = self._space.get(session.current_locus_id or "") or seed
        visits = self._store.read("wander/list_visits", mind=self._mind, session_id=session.id)[0]
        trace = self.trace(last=20)  # what a run carries over: recent themes and the REPL's trace
        themes = [t for row in trace[-5:] for t in (row["themes"] or [])]
        fence = self._space.embed(session.fence_concepts)
        return WalkState(
            session=session,
            current=current[0],
            seed=seed[0],
            anchors=np.vstack([seed[0].vector[None, :], fence]) if len(fence) else seed[0].vector[None, :],
            excluded=self._space.embed(session.fence_excluded),
            attractor=self._space.embed([session.attractor])[0] if session.attractor else None,
            visits={v["id"]: v["visits"] for v in visits["visits"]},
            crystallized=set(visits["crystallized"]),
            recent_themes=themes[-10:],
            trace=[
                {
                    "step_number": r["step_number"],
                    "from": r["from_concept"],
                    "to": r["to_concept"],
                    "themes": r["themes"] or [],
                }
                for r in trace
            ],
        )

    def _report(self, session: WanderSession, taken: list[StepResult], reason: str, cost: float) -> RunReport:
        formed = sum(r.crystal is not None and r.crystal["status"] == "active" for r in taken)
        log.info("wander %s of %s: %d steps, %d crystals, %s", self.id, self._mind, len(taken), formed, reason)
        return RunReport(
            self.id,
            len(taken),
            formed,
            reason,
            cost,
            session.status,
            session.steps_completed or 0,
            session.cloud_spent_cents or 0.0,
            tuple(taken),
        )

    # -- inspection -----------------------------------------------------------------------

    def trace(self, last: int | None = None) -> list[dict[str, Any]]:
        """The session's steps in order (only the ``last`` ones when given)."""
        return self._store.read("wander/list_trace", mind=self._mind, session_id=self.id, last=last)

    def crystals(self) -> list[dict[str, Any]]:
        rows = self._store.read("wander/list_crystals", mind=self._mind, session_id=self.id)
        return [
            {
                "id": r["id"],
                **{k: v for k, v in r["props"].items() if k not in ("mind", "uid", "embedding")},
                "evidence": r["evidence"],
            }
            for r in rows
        ]

    def status(self) -> dict[str, Any]:
        s = self.session
        return {
            "session_id": s.id,
            "status": s.status,
            "seed_concept": s.seed_concept,
            "steps_completed": s.steps_completed or 0,
            "max_steps": s.max_steps,
            "current_locus_id": s.current_locus_id,
            "crystals_formed": s.crystals_formed or 0,
            "cloud_spent_cents": s.cloud_spent_cents or 0.0,
            "cloud_budget_cents": s.cloud_budget_cents,
            "paused_reason": s.paused_reason,
            "fence_concepts": s.fence_concepts,
            "fence_excluded": s.fence_excluded,
            "rng_seed": s.rng_seed,
        }

    def map(self, out: str | Path) -> MapReport:
        """Draw the session's map (a PNG): loci by meaning, domain colours, visits, the trace,
        crystals and resonance halos (``graphmind.wander.map``)."""
        from graphmind.wander.map import render_map

        return render_map(self._store, self._mind, self.id, Path(out))

    # -- intervention ---------------------------------------------------------------------

    def inject(self, concept: str, *, force_visit: bool = True) -> str:
        """Add ``concept`` to the session's idea space (INJECTED); the next step visits it when
        ``force_visit`` (a human's override: it is not scope-checked). Returns the locus id."""
        if not isinstance(concept, str) or not concept.strip():
            raise ValidationError("inject needs a concept", field="concept")
        session, concept = self.session, concept.strip()
        locus_id = self._space.add_session_locus(session.id, concept, "INJECTED", grounded=False)
        if force_visit:
            self._sessions.record(session.id, forced_locus_id=locus_id)
        return locus_id

    def fence(self, concept: str, action: str) -> WanderSession:
        """``include`` widens the fence with an anchor concept; ``exclude`` fences a concept out."""
        if action not in ("include", "exclude"):
            raise ValidationError(f"fence action must be include or exclude, not {action!r}", field="action")
        if not isinstance(concept, str) or not concept.strip():
            raise ValidationError("fence needs a concept", field="concept")
        s, concept = self.session, concept.strip()
        include = [c for c in s.fence_concepts if c != concept] + ([concept] if action == "include" else [])
        exclude = [c for c in s.fence_excluded if c != concept] + ([concept] if action == "exclude" else [])
        return self._sessions.update(s.id, fence_concepts=include, fence_excluded=exclude)

    def crystallize(self) -> CrystalResult:
        """Force a crystallization attempt at the current locus, from the session's strongest
        live resonances and the residues that support them."""
        session = self.session
        current = self._space.get(session.current_locus_id or "")
        if current is None:
            raise NotFoundError(f"wander session {self.id!r} has no current locus")
        live = sorted(self._resonance_rows(), key=lambda r: -r["strength"])[:3]
        residues = self._store.read(
            "wander/list_resonance_residues", mind=self._mind, ids=[r["id"] for r in live], limit=8
        )
        memories = self._space.memories([current[0].id])
        if memories:  # loaded into the crystallize prompt's context: a hit each (the digests read them)
            self._store.write("recall/mark_hits", mind=self._mind, uids=[f"{self._mind}:{m['id']}" for m in memories])
        result = self._crystals.attempt(
            LocusItem(**current[0].item()),
            [
                ResonanceItem(id=r["id"], themes=r["themes"], occurrences=r["occurrences"], strength=r["strength"])
                for r in live
                if r["themes"]
            ],
            [residue_item(r) for r in residues],
            [MemoryItem(**m) for m in memories],
            session_id=session.id,
        )
        if result.formed and result.status == "active":
            self._sessions.record(session.id, crystals_formed=(session.crystals_formed or 0) + 1)
        return result

    def _resonance_rows(self) -> list[dict[str, Any]]:
        return self._walker.resonances.live(datetime.now(UTC))[0]

    def _publish(self, subject: str, payload: dict[str, Any]) -> None:
        if self._bus is not None:
            self._bus.publish(subject, payload)
