"""The REPL dweller (the spec's "Recursive Language Model" pattern): instead of reading the
session's memory in its prompt, the dweller writes code that queries it.

Each turn the model (``wander.dwell_rlm``) answers with code or with the final dwelling. Code
runs in the sandboxed REPL (``graphmind.wander.repl``: a separate, limited process with no
environment, no network and no files); the REPL variables are the session's memory
(``hot_memory``, ``warm_memory``, ``resonances``, ``trace``, ``current_locus``) and its
functions are served here, in the parent, which does every Neo4j and LLM call:
- ``embed(text)``: the embedding of a text;
- ``query_similar(embedding, k=10)``: the k loci of the session's idea space nearest to it;
- ``query_by_domain(domain, limit=20)``: hot loci of that domain;
- ``get_locus(id)`` / ``get_neighbors(locus_id)``: a locus, and its bridges, analogies and
  tensions on the graph;
- ``llm_query(prompt, context="")``: a sub-call to the cheap model (``wander.sub_query``),
  routed and charged against the session's budget like every other call.
The model answers in prose with ```repl blocks (:func:`read_turn`); each block runs in turn and
its output (or error) goes back to the model in the next turn. ``FINAL({...})`` in a block, or
on a line of its own outside the blocks, ends the dwelling. After ``MAX_TURNS`` turns without
one, or a turn with neither code nor a valid final dwelling, the step falls back to the simple
dwelling prompt, so the REPL can never stall a walk.

One :class:`WanderRepl` per session (the last ``MAX_SESSIONS`` sessions, for the life of the
dweller, that is of the wander handle ``Mind.wander`` returns): the variables the code sets (a
``theme_buffer``) stay from one block, turn, dwelling and run of the handle to the next; the
memory variables are refreshed at each dwelling. After each dwelling the kept variables are
written to the session node (``repl_state``, JSON, at most 256 KB), so a new handle on the
session, in this process or another, starts from them.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from typing import Any

import pydantic

from graphmind.llm import LLM
from graphmind.prompts.wander import DWELL, DWELL_RLM, SUB_QUERY, DwellInput, DwellOutput, RlmDwellInput, SubQueryInput
from graphmind.store import GraphStore
from graphmind.wander.repl import ReplLimits, ReplResult, WanderRepl, extract_code, valid_state
from graphmind.wander.space import IdeaSpace

logger = logging.getLogger(__name__)
MAX_TURNS, SIMILAR_MAX, TRACE_SHOWN, MAX_SESSIONS = 4, 50, 20, 32
_BLOCK = re.compile(r"```repl[ \t]*\r?\n.*?```", re.DOTALL)
_FINAL = re.compile(r"^[ \t>*`]*FINAL\(", re.MULTILINE)
Call = Callable[[bool, str, Callable[[LLM], Any]], tuple[Any, str, float]]
"""(want_strong, prompt text, the call) → (output, model used, cost): the walker's budgeted call."""


class RlmDweller:
    def __init__(self, store: GraphStore, space: IdeaSpace, mind: str, limits: ReplLimits | None = None):
        self._store, self._space, self._mind = store, space, mind
        self._limits = limits or ReplLimits()
        self.runs: list[ReplResult] = []
        self._repls: dict[str, WanderRepl] = {}

    def repl(self, session_id: str) -> WanderRepl | None:
        """The session's REPL, once it has dwelt here."""
        return self._repls.get(session_id)

    def dwell(
        self, inputs: DwellInput, variables: dict[str, Any], session_id: str, want_strong: bool, call: Call
    ) -> tuple[DwellOutput, str, float]:
        """The dwelling, through at most ``MAX_TURNS`` REPL turns; (output, model used, cost). The
        REPL's kept variables are saved on the session afterwards, whatever happened."""
        repl = self._session_repl(session_id, variables, call)
        before = dict(repl.state)
        try:
            return self._dwell(repl, inputs, variables, want_strong, call)
        finally:
            if repl.state != before:
                self._store.write(
                    "wander/mark_repl_state", mind=self._mind, id=session_id, state=json.dumps(repl.state)
                )

    def _dwell(
        self, repl: WanderRepl, inputs: DwellInput, variables: dict[str, Any], want_strong: bool, call: Call
    ) -> tuple[DwellOutput, str, float]:
        counts = {k: len(v) for k, v in variables.items() if isinstance(v, (list, dict)) and k != "current_locus"}
        transcript: list[str] = []
        cost, model = 0.0, ""
        for _ in range(MAX_TURNS):
            turn_in = RlmDwellInput(dwell=inputs, counts=counts, transcript=transcript, kept=sorted(repl.state))
            turn, model, spent = call(
                want_strong,
                DWELL_RLM.system + DWELL_RLM.render(turn_in),
                lambda llm: llm.generate(DWELL_RLM, turn_in),  # noqa: B023 - called at once, in this turn
            )
            cost += spent
            blocks, final = read_turn(turn.text)
            for code in blocks:
                result = repl.execute(code)
                self.runs.append(result)
                if (dwelling := _dwelling(result.final)) is not None:
                    return dwelling, model, cost
                transcript.append(_transcript(code, result))
            if (dwelling := _dwelling(final)) is not None:
                return dwelling, model, cost
            if final is not None:
                transcript.append("FINAL(...) was given something that is not the dwelling JSON")
            elif not blocks:
                break
        out, model, spent = call(
            want_strong, DWELL.system + DWELL.render(inputs), lambda llm: llm.generate(DWELL, inputs)
        )
        return out, model, cost + spent

    def _session_repl(self, session_id: str, variables: dict[str, Any], call: Call) -> WanderRepl:
        """The session's REPL with this dwelling's memory and handler; its own variables kept."""
        handler = self._handler(variables, session_id, call)
        repl = self._repls.pop(session_id, None)
        if repl is None:
            repl = WanderRepl(handler, variables, self._limits)
            repl.state = self._saved_state(session_id, variables)
        else:
            repl.handler = handler
            repl.refresh(variables)
        self._repls[session_id] = repl  # the most recent last
        while len(self._repls) > MAX_SESSIONS:
            del self._repls[next(iter(self._repls))]
        return repl

    def _saved_state(self, session_id: str, variables: dict[str, Any]) -> dict[str, Any]:
        """The kept variables the session's last dwelling saved (none for a new session); a saved
        state that is not what the REPL keeps is left unused, and said so."""
        rows = self._store.read("wander/get_repl_state", mind=self._mind, id=session_id)
        saved = rows[0]["state"] if rows else None
        if saved is None:
            return {}
        try:
            state = json.loads(saved)
        except (TypeError, ValueError):
            state = None
        if not valid_state(state):
            logger.warning(
                "session %s: its saved REPL state is not a kept-variables object; starting empty", session_id
            )
            return {}
        return {k: v for k, v in state.items() if k not in variables}

    def _handler(self, variables: dict[str, Any], session_id: str, call: Call) -> Callable[[str, list, dict], Any]:
        def embed(text: str) -> list[float]:
            return [round(float(x), 6) for x in self._space.embed([_text(text, "text")])[0]]

        def query_similar(embedding: list[float], k: int = 10) -> list[dict]:
            rows = self._store.read(
                "wander/find_band_candidates",
                mind=self._mind,
                session_id=session_id,
                current="",
                embedding=[float(x) for x in embedding],
                low=-1.0,
                high=1.0,
                limit=max(1, min(int(k), SIMILAR_MAX)),
            )
            return [_locus(r) | {"similarity": round(float(r["cosine"]), 4)} for r in rows]

        def query_by_domain(domain: str, limit: int = 20) -> list[dict]:
            return [l for l in variables["hot_memory"] if domain in l.get("domains", [])][: max(0, int(limit))]

        def get_locus(locus_id: str) -> dict | None:
            found = self._space.get(_text(locus_id, "id"))
            if found is None:
                return None
            view, refers_to = found
            return view.item() | {"embedding": [round(float(x), 6) for x in view.vector], "refers_to": refers_to}

        def get_neighbors(locus_id: str) -> list[dict]:
            rows = self._store.read(
                "wander/find_graph_candidates",
                mind=self._mind,
                session_id=session_id,
                current=_text(locus_id, "id"),
                limit=5,
            )
            return [_locus(r) | {"strategy": r["strategy"], "via": r["via"]} for r in rows]

        def llm_query(prompt: str, context: str = "") -> str:
            inputs = SubQueryInput(prompt=_text(prompt, "prompt"), context=str(context)[:20_000])
            out, _, _ = call(
                False, SUB_QUERY.system + SUB_QUERY.render(inputs), lambda llm: llm.generate(SUB_QUERY, inputs)
            )
            return out.answer

        functions: dict[str, Callable[..., Any]] = {
            "embed": embed,
            "query_similar": query_similar,
            "query_by_domain": query_by_domain,
            "get_locus": get_locus,
            "get_neighbors": get_neighbors,
            "llm_query": llm_query,
        }
        return lambda name, args, kwargs: functions[name](*args, **kwargs)


def repl_variables(
    hot: list[dict], warm: list[dict], resonances: list[dict], trace: list[dict], current: dict
) -> dict[str, Any]:
    """The REPL's memory variables, as plain JSON (hot loci without their embeddings)."""
    return {
        "hot_memory": [
            {
                "id": l["id"],
                "concept": l["concept"],
                "domains": l["domains"],
                "interestingness": l.get("interestingness"),
            }
            for l in hot
        ],
        "warm_memory": warm,
        "resonances": {
            r["id"]: {
                "themes": r["themes"],
                "strength": round(float(r["strength"]), 4),
                "status": r["status"],
                "occurrences": r["occurrences"],
            }
            for r in resonances
        },
        "trace": trace[-TRACE_SHOWN:],
        "current_locus": current,
    }


def read_turn(text: str) -> tuple[list[str], Any | None]:
    """The ```repl blocks of a reply, in order, and the value of a ``FINAL(...)`` written outside
    them (``None`` if there is none or it is not JSON)."""
    prose = _BLOCK.sub("", text)
    final = None
    for match in _FINAL.finditer(prose):
        try:
            final, _ = json.JSONDecoder().raw_decode(prose[match.end() :].lstrip())
        except ValueError:
            continue
    return extract_code(text), final


def _dwelling(value: Any) -> DwellOutput | None:
    if not isinstance(value, dict):
        return None
    try:
        return DwellOutput.model_validate(value)
    except pydantic.ValidationError:
        return None


def _transcript(code: str, result: ReplResult) -> str:
    tail = f"\nERROR: {result.error}" if result.error else ""
    if result.final is not None and _dwelling(result.final) is None:
        tail += "\nERROR: FINAL(...) was given something that is not the dwelling JSON"
    return f"```repl\n{code.strip()}\n```\nOUTPUT:\n{result.stdout.strip() or '(nothing printed)'}{tail}"


def _locus(row: dict) -> dict:
    props = row["props"]
    return {"id": row["id"], "concept": props.get("concept"), "domains": props.get("domains") or []}


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{what} must be a non-empty string")
    return value
