"""Depth (issue 21, item 2): what the exploration established is judged on content, and the
graph is followed from it along typed edges, two hops deep.

- ``on_topic``: the returned memories the stimulus is about (relevance.py: shared word stems,
  names aside); a node type counts as explored by the first look only when one of its matched
  memories is on topic, so a type that matched by a name or a common word stays a gap.
- ``depth_step``: that read as one exploring step, judged for its yield (returns.py).
- ``deepen``: one read (cypher/ruminate/find_hops.cypher) of the memories one edge, or two
  edges along ``relevance.DEPTH_RELS``, from the on-topic memories: the strategy that
  APPLIES_TO the project the stimulus names, the lesson LEARNED_FROM the failure tried on it.
  Whether each is kept in the Context Object is relevance's call, on the edges between them.
"""

from __future__ import annotations

import logging
import time

from graphmind.prompts._models import NODE_TYPES
from graphmind.ruminate import relevance, returns
from graphmind.ruminate.exploration import Exploration, absorb_found
from graphmind.ruminate.gaps import EnergisedNode, GapSignals, GapWeights, signals
from graphmind.ruminate.result import StepRecord
from graphmind.ruminate.tools import DreamerTools
from graphmind.store import GraphStore

log = logging.getLogger(__name__)

_WHO = ("Partnership", "Conversation_Memory")
HOP_LIMIT = 40
"""At most 40 memories from one depth read (two hops from a few memories of a rich mind)."""


def on_topic(state: Exploration, store: GraphStore) -> set[str]:
    """The ids of the returned memories that share enough of the stimulus's content (the
    state's relevance verdict on everything returned is refreshed on the way, returns.rejudge)."""
    return set(returns.rejudge(state, store).topical)


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


def depth_step(state: Exploration, store: GraphStore, mind: str, sender: str | None, patience: int | None) -> None:
    """Two typed hops out of the on-topic memories, as one step; with nothing on topic,
    rumination ends here, or, for a sender, after looking at who is speaking (the partnership
    gap is closed already when the first look brought the sender's partnership back)."""
    if not state.topical:
        if sender is None:
            state.stopped_reason = "nothing_on_topic"
        else:
            who = _WHO[1:] if returns.rejudge(state, store).partner is not None else _WHO
            state.explored |= {t for t in NODE_TYPES if t not in who}
        return
    graph_before = state.tools.graph_ms
    before, relevant_before = set(state.tools.returned), set(state.relevant)
    reached = deepen(state.tools, store, mind, state.topical)
    returns.rejudge(state, store)
    absorb_found(state, [i for i in reached if i in state.relevant])  # a gap closes only on relevant content
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
            tools=["find_hops"],
        )
    )
    if returns.settle(state, store, patience, relevant_before):
        state.stopped_reason = "diminishing_returns"
    state.steps[-1].graph_ms = round(state.tools.graph_ms - graph_before, 2)


def recompute(state: Exploration, store: GraphStore, weights: GapWeights) -> GapSignals:
    """The V2 signals over every memory energised so far: the coverage map's and every one the
    tools returned (a returned memory is an orphan when no edge joins it to another returned one)."""
    energised = {n.id: n for n in state.coverage.energised}
    extra = [m for i, m in state.tools.returned.items() if i not in energised]
    if extra:
        found = returns.links_of(state, store)
        joined = {l.source for l in found} | {l.target for l in found}
        for m in extra:
            energised[m.id] = EnergisedNode(m.id, m.label, m.properties, orphan=m.id not in joined)
    state.signals = signals(state.coverage.best_cosine, list(energised.values()), weights=weights)
    return state.signals
