"""Depth (issue 21, item 2): what the exploration established is judged on content, and the
graph is followed from it along typed edges, two hops deep.

- ``on_topic``: the returned memories the stimulus is about (relevance.py: shared word stems,
  names aside); a node type counts as explored by the first look only when one of its matched
  memories is on topic, so a type that matched by a name or a common word stays a gap.
- ``deepen``: one read (cypher/ruminate/find_hops.cypher) of the memories one edge, or two
  edges along ``relevance.DEPTH_RELS``, from the on-topic memories: the strategy that
  APPLIES_TO the project the stimulus names, the lesson LEARNED_FROM the failure tried on it.
  Whether each is kept in the Context Object is relevance's call, on the edges between them.
"""

from __future__ import annotations

import logging
import time

from graphmind.prompts._models import NODE_TYPES
from graphmind.ruminate import relevance
from graphmind.ruminate.exploration import Exploration, absorb_found
from graphmind.ruminate.gaps import EnergisedNode, GapSignals, GapWeights, signals
from graphmind.ruminate.result import StepRecord
from graphmind.ruminate.tools import DreamerTools
from graphmind.store import GraphStore

log = logging.getLogger(__name__)

_WHO = ("Partnership", "Conversation_Memory")
HOP_LIMIT = 40
"""At most 40 memories from one depth read (two hops from a few memories of a rich mind)."""


def links(store: GraphStore, mind: str, ids: list[str]) -> list[relevance.Link]:
    """The edges between the given memories of the mind."""
    if not ids:
        return []
    rows = store.read("ruminate/list_links", mind=mind, uids=[f"{mind}:{i}" for i in ids])
    return [relevance.Link(r["source"], r["rel"], r["target"]) for r in rows]


def on_topic(tools: DreamerTools, store: GraphStore, mind: str, stimulus: str, sender: str | None) -> set[str]:
    """The ids of the returned memories that share enough of the stimulus's content."""
    memories = list(tools.returned.values())
    clock = time.perf_counter()
    found = links(store, mind, [m.id for m in memories])
    tools.graph_ms += (time.perf_counter() - clock) * 1000
    chosen = relevance.select(memories, found, stimulus=stimulus, sender=sender)
    return {i for i, why in chosen.reasons.items() if why.startswith("kept: shares")}


def deepen(tools: DreamerTools, store: GraphStore, mind: str, topical: set[str]) -> list[str]:
    """Read the memories within two typed hops of ``topical`` into ``tools.returned``; their ids."""
    if not topical:
        return []
    clock = time.perf_counter()
    rows = store.read(
        "ruminate/find_hops",
        mind=mind,
        uids=[f"{mind}:{i}" for i in sorted(topical)],
        rels=list(relevance.DEPTH_RELS),
        limit=HOP_LIMIT,
    )
    tools.graph_ms += (time.perf_counter() - clock) * 1000
    ids = [tools.keep(row["label"], row["id"], row["props"])["id"] for row in rows]
    log.debug("depth: %d memories within two hops of %d on-topic ones", len(ids), len(topical))
    return ids


def depth_step(state: Exploration, store: GraphStore, mind: str, sender: str | None) -> None:
    """Two typed hops out of the on-topic memories, as one step; with nothing on topic,
    rumination ends here, or, for a sender, after looking at who is speaking."""
    if not state.topical:
        if sender is None:
            state.stopped_reason = "nothing_on_topic"
        else:
            state.explored |= {t for t in NODE_TYPES if t not in _WHO}
        return
    graph_before = state.tools.graph_ms
    before = set(state.tools.returned)
    reached = deepen(state.tools, store, mind, state.topical)
    absorb_found(state, reached)
    state.steps.append(
        StepRecord(
            number=len(state.steps),
            kind="depth",
            node_type=None,
            query="find_hops (two typed hops from the on-topic memories)",
            found_ids=reached,
            new_ids=[i for i in reached if i not in before],
            coverage_score=round(state.score, 4),
            signals=state.current_signals.as_dict(),
            signal="CONTINUE",
            synthesis=f"Within two hops of {len(state.topical)} on-topic memories: {', '.join(reached) or 'nothing'}.",
            graph_ms=round(state.tools.graph_ms - graph_before, 2),
            tools=["find_hops"],
        )
    )


def recompute(state: Exploration, store: GraphStore, weights: GapWeights) -> GapSignals:
    """The V2 signals over every memory energised so far: the coverage map's and every one the
    tools returned (a returned memory is an orphan when no edge joins it to another returned one)."""
    energised = {n.id: n for n in state.coverage.energised}
    extra = [m for i, m in state.tools.returned.items() if i not in energised]
    if extra:
        clock = time.perf_counter()
        found = links(store, state.tools.mind, list(state.tools.returned))
        state.tools.graph_ms += (time.perf_counter() - clock) * 1000
        joined = {l.source for l in found} | {l.target for l in found}
        for m in extra:
            energised[m.id] = EnergisedNode(m.id, m.label, m.properties, orphan=m.id not in joined)
    state.signals = signals(state.coverage.best_cosine, list(energised.values()), weights=weights)
    return state.signals
