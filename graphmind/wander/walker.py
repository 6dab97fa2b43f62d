"""The wander step (the spec's ``wander_step``), as read → pure logic → LLM → pure logic → write.

1. Adjacencies from four strategies (``IdeaSpace.candidates``): distance band, cross-domain
   bridges, analogies, tensions; one locus found twice keeps its best score.
2. Scope: allowed / forbidden domains, drift from the seed and fence concepts
   ≤ ``max_drift_distance``, away from fenced-out concepts. When nothing in the band is in
   scope, the nearest loci either side of it are asked (WIDE_BAND); when none of those is in
   scope either the walk returns to the seed (a fence hit when something was found but fenced
   out; the circuit breaker counts consecutive returns).
3. Composite score, softmax at the session's temperature; step n draws from
   ``random.Random(f"{rng_seed}:{n}")``, so a session's walk replays however it is split.
4. Dwell (``wander.dwell``) on the strong model when ``should_use_cloud``, else the cheap one,
   within the budget (``budget.route``) → a Residue; the dwelling's POSSIBILITY becomes a new
   session locus (SERENDIPITOUS) referring to the memories it drew on.
5. Resonance: the residue's themes reinforce the closest resonance or start one.
6. ``should_crystallize`` → crystallize and validate (strong model when affordable), at most
   once per resonance and per locus.
7. One transaction writes the step: session counters (only if the session is still at step
   n − 1 and active), new loci, the STEP / VISITED / OF_STEP / DRAWS_ON / ADJACENT_TO /
   BRIDGES_TO / CONTRADICTS edges, the residue, resonances and crystal. A crash anywhere
   leaves the session at step n − 1 with nothing of step n written. Events follow the commit.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

from graphmind.errors import ValidationError
from graphmind.llm import LLM
from graphmind.prompts._models import MemoryItem
from graphmind.prompts.wander import DWELL, DwellInput, DwellOutput, LocusItem, ResidueItem, ResonanceItem, residue_text
from graphmind.store import GraphStore
from graphmind.store.graph_store import Transaction
from graphmind.wander import _logic as rules
from graphmind.wander.budget import Budget, BudgetExhausted, call_bound_cents, route
from graphmind.wander.crystals import CrystalResult, Crystals, residue_item
from graphmind.wander.events import EventBus
from graphmind.wander.resonances import Resonances
from graphmind.wander.rlm import RlmDweller, repl_variables
from graphmind.wander.space import Candidate, IdeaSpace, LocusView
from graphmind.wander.walk_state import Models as Models
from graphmind.wander.walk_state import StepResult as StepResult
from graphmind.wander.walk_state import WalkState as WalkState
from graphmind.wander.walk_state import _active as _active
from graphmind.wander.walk_state import _crystal_dict as _crystal_dict
from graphmind.wander.walk_state import _reason as _reason
from graphmind.wander.walk_state import _residue_fields as _residue_fields
from graphmind.wander.walk_state import possibility_locus, step_params

log = logging.getLogger(__name__)

RECENT_THEMES = 10
BAND, WIDE_BAND = (0.3, 0.7), (0.15, 0.999)
"""The distance band (wander-technical-spec); when nothing in it is in scope, the nearest loci
of WIDE_BAND are the candidates (strategy "nearest"): in a consolidated mind many memories lie
closer than 0.7 to each other, in a sparse one few reach 0.3."""


class Walker:
    """Takes steps for one session of one mind."""

    def __init__(
        self,
        store: GraphStore,
        space: IdeaSpace,
        resonances: Resonances,
        crystals: Crystals,
        models: Models,
        mind: str,
        bus: EventBus | None = None,
        before_commit: Callable[[str], None] | None = None,
        rlm: RlmDweller | None = None,
        pool: Executor | None = None,
    ):
        self._store, self._space, self._resonances, self._crystals = store, space, resonances, crystals
        self._models, self._mind, self._bus, self._rlm = models, mind, bus, rlm
        self._before_commit = before_commit  # a test's hook to fail a step inside its transaction
        self._pool = pool or ThreadPoolExecutor(max_workers=2, thread_name_prefix="graphmind-wander")

    @property
    def resonances(self) -> Resonances:
        return self._resonances

    def step(self, state: WalkState, budget: Budget) -> StepResult:
        session, n = state.session, (state.session.steps_completed or 0) + 1
        self._publish("wander.step.started", {"session_id": session.id, "step_number": n})
        now = datetime.now(UTC)
        known = self._pool.submit(self._resonances.live, now)
        found = self._space.candidates(session.id, state.current, low=BAND[0], high=BAND[1], pool=self._pool)
        chosen, scored, in_scope = self._choose(state, found, random.Random(f"{session.rng_seed}:{n}"))
        if chosen is None:  # a dense or sparse neighbourhood: the nearest loci either side of the band
            near = self._space.band(session.id, state.current, WIDE_BAND[0], WIDE_BAND[1], strategy="nearest")
            chosen, wide, in_scope = self._choose(state, near, random.Random(f"{session.rng_seed}:{n}:near"))
            scored = [*scored, *wide]
        forced = self._space.get(session.forced_locus_id) if session.forced_locus_id else None
        if forced is not None:
            chosen = Candidate(forced[0], "injected", float(state.current.vector @ forced[0].vector))
        self._publish(
            "wander.adjacencies.found",
            {
                "session_id": session.id,
                "step_number": n,
                "considered": len(scored),
                "in_scope": in_scope,
                "adjacencies": [a.__dict__ for a in scored[:20]],
            },
        )
        target = chosen.locus if chosen else state.seed
        memories = self._space.memories([state.current.id, target.id])
        live = known.result()
        out, model_used, cost = self._dwell(state, target, memories, budget, live[0])
        residue_id = f"residue-{session.id}-{n}"
        plan = self._resonances.plan(
            out.themes or [target.concept], session_id=session.id, residue_id=residue_id, now=now, known=live
        )
        crystal, crystal_write = self._maybe_crystallize(state, target, out, residue_id, plan, memories, budget)
        score = next((a.score for a in scored if a.concept == target.id), 0.0)
        step = step_params(
            self._mind, state, n, target, chosen, out, residue_id, memories, model_used, cost, score, len(scored)
        )
        new_locus = possibility_locus(self._mind, session, state.current, target, out, memories)
        self._write(state, n, budget, step, new_locus, plan.rows, crystal_write)
        self._advance(state, target, out)
        plan.announce(self._bus)
        if crystal is not None:
            Crystals.announce(crystal, self._bus)
        result = StepResult(
            n,
            step["from_item"],
            target.item(),
            chosen.strategy if chosen else "return_to_seed",
            score,
            len(scored),
            in_scope,
            residue_id,
            list(out.themes),
            {"id": plan.observed.id, "status": plan.observed.status, "strength": plan.observed.strength},
            _crystal_dict(crystal),
            model_used,
            cost,
            chosen is None and bool(scored),
            chosen is None,
        )
        log.debug(
            "wander %s step %d: %s to %r (%s, %s)",
            session.id,
            n,
            result.strategy,
            target.concept,
            model_used,
            f"{cost:.2f} cents",
        )
        self._publish("wander.locus.visited", {"session_id": session.id, "locus": target.item()})
        self._publish(
            "wander.step.completed",
            {
                "session_id": session.id,
                "step_number": n,
                "from_locus": result.from_locus,
                "to_locus": result.to_locus,
                "resonances_detected": 1,
            },
        )
        if budget.low:
            self._publish(
                "wander.budget.low",
                {"session_id": session.id, "spent_cents": budget.spent_cents, "budget_cents": budget.limit_cents},
            )
        return result

    # -- selection ------------------------------------------------------------------------

    def _choose(
        self, state: WalkState, found: list[Candidate], rng: random.Random
    ) -> tuple[Candidate | None, list[rules.Adjacency], int]:
        session = state.session
        best: dict[str, tuple[Candidate, rules.Adjacency]] = {}
        for cand in found:
            adj = rules.adjacency(
                cand.locus.id,
                cand.strategy,
                cand.cosine,
                current_domains=state.current.domains,
                domains=cand.locus.domains,
                interestingness=cand.locus.interestingness,
                uncertainty=cand.locus.uncertainty,
                visits=state.visits.get(cand.locus.id, 0),
                attractor_cosine=None if state.attractor is None else float(state.attractor @ cand.locus.vector),
            )
            if cand.locus.id not in best or adj.score > best[cand.locus.id][1].score:
                best[cand.locus.id] = (cand, adj)
        # ties go by concept, not id: a session locus's id hashes its session, and the same seed
        # must walk the same walk in every session
        ranked = sorted(best.values(), key=lambda pair: (-pair[1].score, pair[0].locus.concept, pair[0].locus.id))
        allowed = [(c, a) for c, a in ranked if self._in_scope(state, c.locus)]
        if not allowed:
            return None, [a for _, a in ranked], 0
        pick = rules.softmax_select([a.score for _, a in allowed], session.temperature, rng)
        chosen = allowed[pick][0]
        if rules.drift(chosen.locus.vector, state.anchors) > 0.8 * session.max_drift_distance:
            self._publish("wander.fence.approached", {"session_id": session.id, "locus": chosen.locus.item()})
        return chosen, [a for _, a in ranked], len(allowed)

    def _in_scope(self, state: WalkState, locus: LocusView) -> bool:
        s = state.session
        ok, _ = rules.within_scope(
            locus.domains,
            rules.drift(locus.vector, state.anchors),
            rules.SessionConfig(max_drift_distance=s.max_drift_distance),
            s.allowed_domains,
            s.forbidden_domains,
        )
        if not ok or not len(state.excluded):
            return ok
        domains = self._space.embed(locus.domains)  # a caching embedder: each phrase once
        return not rules.fenced_out(locus.vector, state.excluded, domains)

    # -- LLM ------------------------------------------------------------------------------

    def _dwell(
        self,
        state: WalkState,
        target: LocusView,
        memories: list[dict[str, Any]],
        budget: Budget,
        live: list[dict[str, Any]],
    ) -> tuple[DwellOutput, str, float]:
        inputs = DwellInput(
            current=LocusItem(**state.current.item()),
            next=LocusItem(**target.item()),
            recent_themes=state.recent_themes[-RECENT_THEMES:],
            active_resonances=[
                f"{', '.join(r['themes'])} (seen {r['occurrences']}x)"
                for r in sorted(live, key=lambda r: (-r["strength"], r["themes"]))[:5]
            ],
            memories=[MemoryItem(**m) for m in memories],
        )
        interest = target.interestingness if target.interestingness is not None else 0.5
        want_strong = rules.should_use_cloud(
            state.current.domains, target.domains, interest, budget.spent_cents, 0.0, budget.limit_cents
        )  # route checks the cost
        if state.session.dweller == "rlm" and self._rlm is not None:
            return self._rlm.dwell(
                inputs,
                self._repl_variables(state, live),
                state.session.id,
                want_strong,
                lambda strong, text, call: self._call(state, budget, strong, text, call),
            )
        text = DWELL.system + DWELL.render(inputs)
        return self._call(state, budget, want_strong, text, lambda llm: llm.generate(DWELL, inputs))

    def _repl_variables(self, state: WalkState, live: list[dict[str, Any]]) -> dict[str, Any]:
        session = state.session.id
        hot = self._store.read("wander/list_hot_loci", mind=self._mind, session_id=session)
        warm = self._store.read("wander/list_warm_memory", mind=self._mind, session_id=session)
        current = state.current.item() | {"embedding": [round(float(x), 6) for x in state.current.vector]}
        return repl_variables(hot, warm, live, state.trace, current)

    def _call(
        self, state: WalkState, budget: Budget, want_strong: bool, text: str, call: Callable[[LLM], Any], calls: int = 1
    ) -> tuple[Any, str, float]:
        m = self._models
        bounds = {
            "strong": call_bound_cents(m.strong, text, m.prices, calls),
            "cheap": call_bound_cents(m.cheap, text, m.prices, calls),
        }
        choice = route(want_strong, bounds["strong"], bounds["cheap"], budget)
        llm = m.strong if choice == "strong" else m.cheap
        before = llm.usage.cost_cents
        out = call(llm)
        cost = round(llm.usage.cost_cents - before, 6)
        budget.charge(cost)
        state.calls["cloud_calls" if bounds[choice] > 0 else "local_calls"] += 1  # priced or free
        return out, f"{llm.provider}:{getattr(llm, 'model', None) or choice}", cost

    def _maybe_crystallize(
        self,
        state: WalkState,
        target: LocusView,
        out: DwellOutput,
        residue_id: str,
        plan: Any,
        memories: list[dict[str, Any]],
        budget: Budget,
    ) -> tuple[CrystalResult | None, dict | None]:
        o = plan.observed
        if not rules.should_crystallize([(o.status, o.strength)], out.interestingness, out.actionability):
            return None, None
        if o.id in state.crystallized or target.id in state.crystallized:
            return None, None
        residues = [ResidueItem(id=residue_id, **_residue_fields(out))]
        residues += [
            residue_item(r)
            for r in self._store.read("wander/list_resonance_residues", mind=self._mind, ids=[o.id], limit=5)
        ]
        resonance = ResonanceItem(id=o.id, themes=o.themes, occurrences=o.occurrences, strength=o.strength)
        locus, items = LocusItem(**target.item()), [MemoryItem(**m) for m in memories]
        text = " ".join([target.concept, *(m.text for m in items), *(residue_text(r) for r in residues)])
        try:
            result, write = self._call(
                state,
                budget,
                True,
                text,
                lambda llm: self._crystals.propose(
                    locus, [resonance], residues, items, session_id=state.session.id, llm=llm
                ),
                calls=2,
            )[0]
        except BudgetExhausted:
            return None, None  # the dwelling is paid for; the crystal waits for a budget that fits it
        state.crystallized |= {o.id, target.id}
        return result, write

    # -- writing --------------------------------------------------------------------------

    def _write(
        self,
        state: WalkState,
        n: int,
        budget: Budget,
        step: dict[str, Any],
        new_locus: dict[str, Any] | None,
        resonance_rows: list[dict[str, Any]],
        crystal_write: dict | None,
    ) -> None:
        changes = {
            "current_locus_id": step["to"],
            "cloud_spent_cents": budget.spent_cents,
            "local_calls": (state.session.local_calls or 0) + state.calls["local_calls"],
            "cloud_calls": (state.session.cloud_calls or 0) + state.calls["cloud_calls"],
            "crystals_formed": (state.session.crystals_formed or 0) + int(_active(crystal_write)),
            "forced_locus_id": None,
        }
        loci = self._space.with_embeddings([new_locus]) if new_locus else []
        params = {k: v for k, v in step.items() if k != "from_item"}

        def work(tx: Transaction) -> None:  # one managed transaction: run again on a transient error
            if not tx.run(
                "wander/mark_session_step", mind=self._mind, id=state.session.id, expected=n - 1, changes=changes
            ):
                raise ValidationError(
                    f"wander session {state.session.id!r} is not active at step {n - 1} any "
                    "more (paused, stopped or moved on elsewhere)",
                    field="session",
                )
            if loci:
                tx.run("wander/upsert_loci", mind=self._mind, rows=loci)
            tx.run("wander/link_step", mind=self._mind, session_id=state.session.id, step=params)
            if self._before_commit is not None:
                self._before_commit("wander/link_step")
            tx.run("wander/upsert_resonances", mind=self._mind, rows=resonance_rows)
            if crystal_write is not None:
                tx.run("wander/upsert_crystal", mind=self._mind, crystal=crystal_write)

        self._store.write_transaction(work)
        state.calls = {"local_calls": 0, "cloud_calls": 0}
        state.session = state.session.model_copy(update={**changes, "steps_completed": n})

    @staticmethod
    def _advance(state: WalkState, target: LocusView, out: DwellOutput) -> None:
        n = state.session.steps_completed
        state.trace = [
            *state.trace,
            {"step_number": n, "from": state.current.concept, "to": target.concept, "themes": list(out.themes)},
        ][-20:]
        state.current = LocusView(**{**target.__dict__, "interestingness": out.interestingness})
        state.visits[target.id] = state.visits.get(target.id, 0) + 1
        state.recent_themes = (state.recent_themes + list(out.themes))[-RECENT_THEMES:]

    def _publish(self, subject: str, payload: dict[str, Any]) -> None:
        if self._bus is not None:
            self._bus.publish(subject, payload)
