"""The gap-driven ruminator (seed P02, "Implementation Guidance"), on the graph.

1. Coverage (coverage.py): the stimulus's matches and their neighbourhood, per node type, and
   the V2 gap signals. The initial broad exploration reads the matched memories of each type.
2. The loop, while the V1 coverage score (gaps.py: it drives stopping) is at or above
   ``gap_threshold`` or a type the coverage map found relevant is unexplored: the
   highest-priority unexplored gap is handed to the Dreamer with the continuation prompt, the
   findings so far and the monologue; the Dreamer queries the graph through the nine tools
   (tools.py) and answers with a finding, a gap update, its monologue and a signal. Once
   every type has been explored, a found memory linked to memories not yet seen is followed
   (thread-following). [CRYSTALLIZE] is honoured when the score is below 0.5; ``max_steps``
   (12) ends the loop, and so does a step that adds no relevant memory and closes no gap
   (diminishing returns, returns.py).
3. Guard rails (guards.py) re-ask a step once with the seed's prompt; each firing is counted.
   An answer the provider cannot turn into a step (LLMOutputError) counts as [CONTINUE] once
   (the engine then runs the gap's query itself); a second one ends the loop.
4. engine.py composes the Context Object from the memories the tools returned
   (context/compose.py) and records the run.
"""

from __future__ import annotations

import time
from typing import Any, cast

from graphmind.errors import LLMOutputError
from graphmind.llm import LLM, Prompt
from graphmind.prompts._models import NODE_TYPES, MemoryItem, NodeType
from graphmind.prompts.ruminate import (
    CONTINUE,
    GAP_QUERIES,
    GUARD_ENDLESS_PROMPT,
    GUARD_HALLUCINATION_PROMPT,
    GUARD_MECHANICAL_PROMPT,
    GUARD_PREMATURE_PROMPT,
    STUCK,
    EndlessInput,
    FindingSummary,
    GapAnalysis,
    GapUpdate,
    HallucinationInput,
    MechanicalInput,
    PrematureInput,
    RuminationStepInput,
    RuminationStepOutput,
    StepFinding,
    StuckInput,
)
from graphmind.recall import Recaller
from graphmind.ruminate import guards, returns
from graphmind.ruminate.coverage import detect
from graphmind.ruminate.depth import depth_step, on_topic, recompute
from graphmind.ruminate.established import UNREADABLE
from graphmind.ruminate.exploration import _TYPE_OF_TOOL as _TYPE_OF_TOOL
from graphmind.ruminate.exploration import Exploration as Exploration
from graphmind.ruminate.exploration import RuminationParams as RuminationParams
from graphmind.ruminate.exploration import _as_type as _as_type
from graphmind.ruminate.exploration import _gist as _gist
from graphmind.ruminate.exploration import _ids as _ids
from graphmind.ruminate.exploration import absorb_found, record_step
from graphmind.ruminate.exploration import explored_types as explored_types
from graphmind.ruminate.gaps import coverage_score, prioritize
from graphmind.ruminate.result import StepRecord
from graphmind.ruminate.tools import DreamerTools
from graphmind.store import GraphStore


class Ruminator:
    """Runs one rumination over one mind (read -> pure -> LLM -> pure, step by step)."""

    def __init__(self, store: GraphStore, recaller: Recaller, llm: LLM, params: RuminationParams = RuminationParams()):
        self._store = store
        self._recaller = recaller
        self._llm = llm
        self._params = params

    def explore(self, mind: str, stimulus: str, sender: str | None) -> Exploration:
        coverage = detect(self._store, self._recaller, mind, stimulus, sender=sender, weights=self._params.weights)
        tools = DreamerTools(self._store, self._recaller, mind, stimulus, sender, coverage)
        state = Exploration(coverage=coverage, tools=tools)
        self._initial(state, coverage.graph_ms)
        depth_step(state, self._store, mind, sender, self._params)
        people = [str(m.prop("partner_name")) for m in tools.returned.values() if m.prop("partner_name")]
        while not state.stopped_reason:
            self._step(state, stimulus, sender, people)
        return state

    def _initial(self, state: Exploration, coverage_ms: float) -> None:
        """The broad first look: what the stimulus matched directly, type by type (the coverage
        query already read those memories)."""
        energised = {n.id: n for n in state.coverage.energised}
        found: list[str] = []
        for node_type, covered in state.coverage.types.items():
            ids = [
                state.tools.keep(energised[i].label, i, energised[i].props)["id"]
                for i in covered.matched
                if i in energised
            ]
            found += ids
            if node_type in NODE_TYPES and ids:
                state.findings.append(
                    FindingSummary(
                        node_type=node_type,
                        found=True,
                        memory_ids=ids,
                        synthesis=f"The stimulus touches {node_type} directly: "
                        + "; ".join(_gist(state.tools.returned[i]) for i in ids),
                    )
                )
        state.topical = on_topic(state, self._store)
        absorb_found(state, [i for i in found if i in state.topical])
        state.explored |= set(state.found_types)
        state.settled_types = set(state.found_types)
        synthesis = (
            f"The stimulus touches {len(found)} memories directly: {', '.join(found)}."
            if found
            else "Nothing in the graph matches the stimulus directly."
        )
        state.steps.append(
            StepRecord(
                number=0,
                kind="initial",
                node_type=None,
                query="coverage search",
                found_ids=found,
                new_ids=found,
                coverage_score=state.score,
                signals=state.current_signals.as_dict(),
                signal="CONTINUE",
                synthesis=synthesis,
                graph_ms=round(coverage_ms + state.tools.graph_ms, 2),
            )
        )

    def _step(self, state: Exploration, stimulus: str, sender: str | None, people: list[str]) -> None:
        params = self._params
        relevant = state.coverage.relevant_types
        if state.score < params.gap_threshold and all(t in state.explored for t in relevant):
            state.stopped_reason = "gaps_closed"
            return
        gaps = prioritize(
            [t for t in NODE_TYPES if t not in state.explored],
            stimulus,
            sender=sender,
            people=people,
            similarity=state.coverage.similarity(),
            relevant=relevant,
        )
        graph_before = state.tools.graph_ms
        thread = None if gaps else self._thread(state)
        if not gaps and thread is None:
            state.stopped_reason = "coverage_complete"
            return
        number = len(state.steps)
        inputs = self._inputs(state, stimulus, sender, gaps, thread, number)
        if number >= params.max_steps:  # every step counts, the first look and depth too
            self._finish_endless(state, inputs, number)
            return
        before = set(state.tools.returned) - set(thread[1] if thread else ())
        clock = time.perf_counter()
        output, guards_fired, calls, claims = self._ask_step(state, inputs, gaps, stimulus, sender)
        graph_ms = state.tools.graph_ms - graph_before
        llm_ms = (time.perf_counter() - clock) * 1000 - graph_ms
        new_ids = [i for i in state.tools.returned if i not in before]
        explored = explored_types(
            gaps[0] if gaps else None,
            [name for name, _ in calls],
            {_as_type(state.tools.returned[i].label) for i in new_ids},
        )
        relevant_before = set(state.relevant)
        returns.rejudge(state, self._store)  # what the step brought back, judged before its gaps close
        record_step(state, output, inputs, explored, thread, new_ids, guards_fired, claims, graph_ms, llm_ms)
        state.steps[-1].queried = bool(calls) or bool(inputs.query_results)
        state.steps[-1].tools = [name for name, _ in calls]
        diminished = returns.settle(state, self._store, params.patience, relevant_before)
        state.steps[-1].graph_ms = round(state.tools.graph_ms - graph_before, 2)
        if state.stopped_reason:  # a second unreadable answer ended it
            return
        if output.signal == "CRYSTALLIZE" and state.score < guards.PREMATURE_BELOW:
            state.stopped_reason = "crystallized"
        elif self._stalled(state):
            state.stopped_reason = "stuck"
            self._finish_endless(state, inputs, number + 1)
        elif diminished:
            state.stopped_reason = "diminishing_returns"

    def _inputs(
        self,
        state: Exploration,
        stimulus: str,
        sender: str | None,
        gaps: list[str],
        thread: tuple[str, list[str]] | None,
        number: int,
    ) -> RuminationStepInput:
        covered = [t for t in NODE_TYPES if t in state.found_types]
        results: list[MemoryItem] = []
        query = ""
        if thread is not None:
            query = f"follow_edges({thread[0]})"
            results = [state.tools.returned[i] for i in thread[1]]
        gap = GapAnalysis(
            covered_types=covered,
            gap_types=gaps,
            composite_score=round(state.score, 4),
            priority_gap=gaps[0] if gaps else None,
            signals=recompute(state, self._store, self._params.weights).as_dict(),
        )
        return RuminationStepInput(
            stimulus=stimulus,
            sender=sender,
            findings=state.findings,
            internal_monologue=state.monologue,
            gap=gap,
            query=query,
            query_results=results,
            step_number=number,
            max_steps=self._params.max_steps,
        )

    def _ask_step(
        self, state: Exploration, inputs: RuminationStepInput, gaps: list[str], stimulus: str, sender: str | None
    ) -> tuple[RuminationStepOutput, list[str], list[Call], list[str]]:
        """The Dreamer's answer to one step, after at most one re-ask per guard rail; the tool
        calls made (by every ask of the step); and what the final answer still claims without
        a source. A re-ask shows what the step's earlier calls returned."""
        fired: list[str] = []
        output, calls = self._ask(state, CONTINUE, inputs, inputs, gaps)
        if guards.is_stuck(output, bool(calls) or bool(inputs.query_results)):
            fired.append("stuck")
            output, again = self._ask(state, STUCK, StuckInput(step=inputs), inputs, gaps)
            calls += again
        shown = self._shown(state, inputs, calls)
        if guards.is_mechanical(output, state.findings):
            fired.append("mechanical")
            output, again = self._ask(
                state, GUARD_MECHANICAL_PROMPT, MechanicalInput(step=shown, previous=output), shown, gaps
            )
            calls += again
            shown = self._shown(state, inputs, calls)
        claims = guards.hallucinated(output, state.tools.returned.values(), stimulus, sender)
        if claims:
            fired.append("hallucination")
            output, again = self._ask(
                state,
                GUARD_HALLUCINATION_PROMPT,
                HallucinationInput(step=shown, previous=output, claimed_info=claims[0]),
                shown,
                gaps,
            )
            calls += again
            shown = self._shown(state, inputs, calls)
        if guards.is_premature(output, self._score_after(state, output)):
            fired.append("premature")
            unexplored = [t for t in NODE_TYPES if t not in state.explored] or list(NODE_TYPES)
            output, again = self._ask(
                state,
                GUARD_PREMATURE_PROMPT,
                PrematureInput(step=shown, explored_count=len(state.explored), unexplored=unexplored),
                shown,
                gaps,
            )
            calls += again
        for name in fired:
            state.guard_counts[name] += 1
        if fired:  # the answer changed: check the one that is kept
            claims = guards.hallucinated(output, state.tools.returned.values(), stimulus, sender)
        return output, fired, calls, claims

    def _shown(self, state: Exploration, inputs: RuminationStepInput, calls: list[Call]) -> RuminationStepInput:
        """The step as a re-ask shows it: with what this step's tool calls returned."""
        if not calls or inputs.query:
            return inputs
        ids = list(dict.fromkeys(i for _, found in calls for i in found))
        returned = state.tools.returned
        return inputs.model_copy(
            update={
                "query": ", ".join(dict.fromkeys(f"{name}()" for name, _ in calls)),
                "query_results": [returned[i] for i in ids if i in returned],
            }
        )

    def _ask(
        self,
        state: Exploration,
        prompt: Prompt[Any, RuminationStepOutput],
        inputs: Any,
        step: RuminationStepInput,
        gaps: list[str],
    ) -> tuple[RuminationStepOutput, list[Call]]:
        """One LLM call with the nine tools, and the calls it made (tool name, ids returned);
        an unusable answer becomes [CONTINUE] once, with the engine's own query of the gap."""
        try:
            run = self._llm.run_tools(prompt, inputs, state.tools.tools())
        except LLMOutputError:
            state.guard_counts["llm_output"] += 1
            if state.guard_counts["llm_output"] > 1:
                state.stopped_reason = "llm_output"
            output = self._engine_step(state, step, gaps)
            return output, ([(GAP_QUERIES[gaps[0]], output.finding.memory_ids)] if gaps else [])
        return run.output, [(c.tool, _ids(c.output)) for c in run.calls]

    def _engine_step(self, state: Exploration, step: RuminationStepInput, gaps: list[str]) -> RuminationStepOutput:
        """What the engine records when the Dreamer's answer was unusable: it runs the gap's
        query itself, and the step says what came back, without interpretation."""
        target = gaps[0] if gaps else None
        rows = state.tools.query(cast(NodeType, target)) if target else []  # gaps are node types
        ids = [r["id"] for r in rows]
        synthesis = f"{target}: {', '.join(ids)}." if ids else f"No {target or 'thread'} data found."
        return RuminationStepOutput(
            finding=StepFinding(
                node_type=target,
                gap_explored=target or "thread",
                query=GAP_QUERIES.get(target or "", "") + "()" if target else step.query,
                result=", ".join(ids) or "None",
                synthesis=synthesis,
                memory_ids=ids,
                confidence=0.0,
            ),
            gap_update=GapUpdate(composite_gap_score=round(state.score, 4)),
            internal_monologue="The Dreamer's answer could not be read; the engine ran the query.",
            signal="CONTINUE",
            signal_reasoning=UNREADABLE,
        )

    def _score_after(self, state: Exploration, output: RuminationStepOutput) -> float:
        returned = state.tools.returned
        labels = {returned[i].label for i in output.finding.memory_ids if i in returned}
        return coverage_score(state.found_types | {_as_type(label) for label in labels})

    def _thread(self, state: Exploration) -> tuple[str, list[str]] | None:
        """A memory on topic (or linked to one) with linked memories not seen yet, and those
        memories; a thread from any other memory has nothing relevance would keep (returns.py)."""
        for node_id in list(state.tools.returned):
            if node_id in state.followed or node_id not in state.anchors:
                continue
            seen = set(state.tools.returned)
            linked = [row["id"] for row in state.tools.follow(node_id)]
            unseen = [i for i in linked if i not in seen]
            if unseen:
                return node_id, unseen
            state.followed.add(node_id)
        return None

    def _stalled(self, state: Exploration) -> bool:
        """[CONTINUE] twice in a row without a query: the seed's endless continuation."""
        last = state.steps[-2:]
        return len(last) == 2 and all(s.kind != "initial" and not s.queried for s in last)

    def _finish_endless(self, state: Exploration, inputs: RuminationStepInput, number: int) -> None:
        state.guard_counts["endless"] += 1
        clock = time.perf_counter()
        try:
            output = self._llm.generate(GUARD_ENDLESS_PROMPT, EndlessInput(step=inputs, steps_taken=number - 1))
            monologue, reasoning = output.internal_monologue, output.signal_reasoning
        except LLMOutputError:
            monologue, reasoning = "", "The step budget is spent."
        state.steps.append(
            StepRecord(
                number=len(state.steps),
                kind="guard",
                node_type=None,
                query="",
                found_ids=[],
                new_ids=[],
                coverage_score=round(state.score, 4),
                signals=state.current_signals.as_dict(),
                signal="CRYSTALLIZE",
                signal_reasoning=reasoning,
                monologue=monologue,
                guard_rails=["endless"],
                llm_ms=round((time.perf_counter() - clock) * 1000, 2),
            )
        )
        state.stopped_reason = state.stopped_reason or "max_steps"


Call = tuple[str, list[str]]
"""One tool call of a step: the tool's name and the ids of the memories it returned."""
