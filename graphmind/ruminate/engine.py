"""One rumination, end to end: check the stimulus, explore, compose the Context Object, record.

A stimulus is cut to ``MAX_STIMULUS_CHARS`` (at the last space before the limit, marked with
"…"): it is searched, shown to the Dreamer and quoted in the Context Object as cut, and the
result says ``truncated``. The Context Object's Current Situation quotes it, and the budget
gives that section 250-400 tokens; 1,000 characters is about 250 tokens.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from graphmind.context.compose import compose_context
from graphmind.errors import ValidationError
from graphmind.llm import LLM
from graphmind.prompts._models import NODE_TYPES, MemoryItem
from graphmind.prompts.context import Dependency
from graphmind.recall import Recaller
from graphmind.ruminate import established, relevance
from graphmind.ruminate.result import RuminationResult
from graphmind.ruminate.ruminator import Exploration, RuminationParams, Ruminator
from graphmind.ruminate.tools import memory_item
from graphmind.store import GraphStore
from graphmind.store.graph_store import Transaction
from graphmind.store.minds import require_mind
from graphmind.text import checked_text

log = logging.getLogger(__name__)

MAX_STIMULUS_CHARS = 1_000
MAX_SENDER_CHARS = 200


def check_stimulus(stimulus: object) -> tuple[str, bool]:
    """The stimulus to ruminate on and whether it was cut; ValidationError if there is none."""
    stimulus = checked_text(stimulus, "the stimulus", "stimulus")
    text = " ".join(stimulus.split()) if "\n" not in stimulus.strip() else stimulus.strip()
    if len(text) <= MAX_STIMULUS_CHARS:
        return text, False
    cut = text[: MAX_STIMULUS_CHARS - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > MAX_STIMULUS_CHARS // 2 else cut).rstrip() + "…", True


def check_sender(sender: object) -> str | None:
    if sender is None:
        return None
    if not isinstance(sender, str) or not sender.strip() or len(sender) > MAX_SENDER_CHARS:
        raise ValidationError(f"the sender must be a name of 1 to {MAX_SENDER_CHARS} characters", field="sender")
    return sender.strip()


class RuminationEngine:
    """The rumination engine of one store: explores with ``recaller`` and ``llm`` (``run``)."""

    def __init__(self, store: GraphStore, recaller: Recaller, llm: LLM):
        self.store, self.recaller, self.llm = store, recaller, llm

    def run(
        self, mind: str, stimulus: str, sender: str | None = None, params: RuminationParams | None = None
    ) -> RuminationResult:
        return ruminate(self.store, self.recaller, self.llm, mind, stimulus, sender, params or RuminationParams())


def ruminate(
    store: GraphStore,
    recaller: Recaller,
    llm: LLM,
    mind: str,
    stimulus: str,
    sender: str | None = None,
    params: RuminationParams = RuminationParams(),
) -> RuminationResult:
    """Ruminate on ``stimulus`` in ``mind``, record the run, return its Context Object."""
    text, truncated = check_stimulus(stimulus)
    sender = check_sender(sender)
    require_mind(store, mind, "memories")
    started, calls_before = time.perf_counter(), llm.usage.calls
    cost_before = llm.usage.cost_cents
    state = Ruminator(store, recaller, llm, params).explore(mind, text, sender)
    explored_s = time.perf_counter() - started
    log.info(
        "rumination in %s: %d steps, stopped: %s, gap score %.2f",
        mind,
        len(state.steps),
        state.stopped_reason,
        state.score,
    )
    identity = _identity(store, mind)
    found = established.read(state.steps, state.tools.returned)
    returned = list(state.tools.returned.values())
    if sender and not any(_speaks_for(m, sender) for m in returned):
        partner = _sender_partnership(store, mind, sender)  # who is speaking: not reached by the exploration
        returned += [partner] if partner is not None else []
    chosen = _relevant(store, mind, returned, text, sender, identity, found)
    memories = chosen.kept
    kept = {m.id for m in memories}
    context = compose_context(
        llm,
        stimulus=text,
        sender=sender,
        identity=identity,
        memories=memories,
        dependencies=_dependencies(store, mind, memories),
        weak_ids=chosen.weak,
        unknown_terms=chosen.topic_terms,
        named_elsewhere=chosen.named_elsewhere,
        findings=established.restated(found.findings, state.tools.returned, kept),
        scores=chosen.scores,
    )
    records = llm.usage.records[calls_before:]
    result = RuminationResult(
        run_id=f"rumination-{datetime.now(UTC):%Y%m%dT%H%M%S}-{secrets.token_hex(3)}",
        mind=mind,
        stimulus=text,
        sender=sender,
        context=context,
        steps=state.steps,
        coverage={**_coverage(state), "relevance": chosen.reasons},
        final_gap_score=state.score,
        signals=state.current_signals.as_dict(),
        stopped_reason=state.stopped_reason,
        guard_rails=dict(state.guard_counts),
        truncated=truncated,
        llm={
            "provider": llm.provider,
            "calls": len(records),
            "input_tokens": sum(r.input_tokens for r in records),
            "output_tokens": sum(r.output_tokens for r in records),
            "cost_cents": round(llm.usage.cost_cents - cost_before, 4),
        },
        timings_ms={
            "explore": round(explored_s * 1000, 1),
            "graph": round(sum(s.graph_ms for s in state.steps), 1),
            "llm": round(sum(s.llm_ms for s in state.steps), 1),
            "context": round((time.perf_counter() - started - explored_s) * 1000, 1),
        },
    )
    store.write_transaction(lambda tx: _write(tx, result, state.tools.returned))
    return result


def _write(tx: Transaction, result: RuminationResult, returned: Iterable[str]) -> None:
    """The run and its hits in one transaction: a crash leaves neither."""
    _record(tx, result)
    _count_hits(tx, result.mind, result, returned)


def _identity(store: GraphStore, mind: str) -> MemoryItem | None:
    rows = store.read("ruminate/get_identity", mind=mind)
    return memory_item("Identity", rows[0]["id"], rows[0]["props"]) if rows else None


def _sender_partnership(store: GraphStore, mind: str, sender: str) -> MemoryItem | None:
    """The partnership with ``sender`` (partner_name, any case), if the mind holds one."""
    rows = store.read("ruminate/get_sender_partnership", mind=mind, sender=sender)
    return memory_item("Partnership", rows[0]["id"], rows[0]["props"]) if rows else None


def _speaks_for(memory: MemoryItem, sender: str) -> bool:
    """Whether ``memory`` is the partnership with ``sender`` (as get_sender_partnership matches)."""
    return memory.label == "Partnership" and str(memory.prop("partner_name") or "").lower() == sender.lower()


DEPENDENCY_RELS = ("DEPENDS_ON", "IMPORTS", "CALLS", "REQUIRES")
"""The relationships the Context Object's "Dependencies" follow (source depends on target)."""


def _relevant(
    store: GraphStore,
    mind: str,
    memories: list[MemoryItem],
    stimulus: str,
    sender: str | None,
    identity: MemoryItem | None,
    found: established.Established,
) -> relevance.Selection:
    rows = store.read("ruminate/list_links", mind=mind, uids=[f"{mind}:{m.id}" for m in memories]) if memories else []
    links = [relevance.Link(r["source"], r["rel"], r["target"]) for r in rows]
    # The mind's own name says who, not what; of a title ("Saltfleet Point ringing log") only its
    # capitalised words name anyone: "ringing" is what its memories are about.
    title = str(identity.prop("name") or "") if identity is not None else ""
    names = [" ".join(w for w in title.split() if w[:1].isupper())]
    return relevance.select(memories, links, stimulus=stimulus, sender=sender, names=names, established=found)


def _dependencies(store: GraphStore, mind: str, memories: list[MemoryItem]) -> list[Dependency]:
    if not memories:
        return []
    rows = store.read(
        "ruminate/list_dependencies", mind=mind, rels=list(DEPENDENCY_RELS), uids=[f"{mind}:{m.id}" for m in memories]
    )
    return [Dependency(source=r["source"], rel=r["rel"], target=r["target"]) for r in rows]


def _coverage(state: Exploration) -> dict[str, Any]:
    types = {
        t: {**c.as_dict(), "explored": t in state.explored, "found": t in state.found_types}
        for t, c in state.coverage.types.items()
    }
    return {
        "types": types,
        "covered": [t for t in NODE_TYPES if t in state.found_types],
        "gaps": [t for t in NODE_TYPES if t not in state.found_types],
        "best_similarity": state.coverage.as_dict()["best_similarity"],
    }


def _record(tx: Transaction, result: RuminationResult) -> None:
    """The RuminationRun, a Finding per step and per section, and their CITES edges."""
    mind, run_id = result.mind, result.run_id
    findings = [
        _finding(
            mind,
            f"{run_id}-step-{s.number}",
            s.synthesis or s.monologue or s.signal_reasoning,
            s.found_ids,
            step_number=s.number,
            node_type=s.node_type or s.kind,
            signal=s.signal,
            gap_score=s.coverage_score,
        )
        for s in result.steps
        if s.found_ids
    ]
    findings += [
        _finding(mind, f"{run_id}-{section.key}", section.text, section.node_ids, section=section.key)
        for section in result.context.sections
        if section.node_ids
    ]
    run = {
        "uid": f"{mind}:{run_id}",
        "id": run_id,
        "props": {
            "message": result.stimulus,
            "sender": result.sender,
            "steps": len(result.steps),
            "final_gap_score": round(result.final_gap_score, 4),
            "stopped_reason": result.stopped_reason,
            "context_markdown": result.context_markdown,
            "token_count": result.context.token_count,
            "composer": result.context.validation.composer,
            "llm_calls": result.llm["calls"],
            "cost_cents": result.llm["cost_cents"],
            "truncated": result.truncated,
            "trace": json.dumps([s.as_dict() for s in result.steps], ensure_ascii=False),
            "coverage": json.dumps(result.coverage, ensure_ascii=False),
            "guard_rails": json.dumps(result.guard_rails),
            "timings_ms": json.dumps(result.timings_ms),
            **{f"gap_{name}": value for name, value in result.signals.items() if isinstance(value, float)},
        },
    }
    tx.run("ruminate/upsert_run", mind=mind, run=run, findings=findings)


def _count_hits(tx: Transaction, mind: str, result: RuminationResult, returned: Iterable[str]) -> None:
    """One hit on each memory the rumination loaded into its context: every memory its tools
    returned to the model (and the composer read) and every one the Context Object cites (the
    digests read hits: an entry read here is no longer forgotten)."""
    loaded = sorted(set(returned) | {i for section in result.context.sections for i in section.node_ids})
    if loaded:
        tx.run("recall/mark_hits", mind=mind, uids=[f"{mind}:{i}" for i in loaded])


def _finding(mind: str, finding_id: str, summary: str, cites: list[str], **props: Any) -> dict[str, Any]:
    clean = {k: v for k, v in props.items() if v is not None}
    return {
        "uid": f"{mind}:{finding_id}",
        "id": finding_id,
        "props": {"summary": summary[:4000] or "(empty)", **clean},
        "cites": [f"{mind}:{i}" for i in dict.fromkeys(cites)],
    }
