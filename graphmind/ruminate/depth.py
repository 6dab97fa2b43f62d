"""Depth (issue 21, item 2): what the exploration established is judged on content, and the
graph is followed from it along typed edges, one hop per step.

- ``on_topic``: the returned memories the stimulus is about (relevance.py: shared word stems,
  names aside); a node type counts as explored by the first look only when one of its matched
  memories is on topic, so a type that matched by a name or a common word stays a gap.
- ``depth_step``: the depth steps, each judged for its yield (returns.py). Step by step the
  frontier moves one hop out: first the neighbours of the on-topic memories (any edge), then
  those one edge of ``relevance.DEPTH_RELS`` further from the memories at one hop, then at two
  (the strategy ADDRESSES the cold room that CAUSED the slow culture that CAUSED the problem
  the stimulus names), up to ``relevance.MAX_HOPS``. A layer whose read brings nothing back is
  passed in the same step to the next one, so every step reads something not read before and
  says what it found. Whether each memory is kept is relevance's call, on the edges between
  them; a gap closes only on a kept memory. Depth ends on a barren step (diminishing returns)
  or when no layer is left to read.
- ``deepen``: one read (cypher/ruminate/find_neighbours.cypher) of one layer's neighbours.
"""

from __future__ import annotations

import logging
import time

from graphmind.prompts._models import NODE_TYPES
from graphmind.ruminate import relevance, returns
from graphmind.ruminate.exploration import Exploration, RuminationParams, absorb_found
from graphmind.ruminate.gaps import EnergisedNode, GapSignals, GapWeights, signals
from graphmind.ruminate.result import StepRecord
from graphmind.ruminate.tools import DreamerTools
from graphmind.store import GraphStore

log = logging.getLogger(__name__)

_WHO = ("Partnership", "Conversation_Memory")
HOP_LIMIT = 40
"""At most 40 memories from one depth read (one hop from a layer of a rich mind)."""


def on_topic(state: Exploration, store: GraphStore) -> set[str]:
    """The ids of the returned memories that share enough of the stimulus's content (the
    state's relevance verdict on everything returned is refreshed on the way, returns.rejudge)."""
    return set(returns.rejudge(state, store).topical)


def distances(topical: set[str], state: Exploration, store: GraphStore) -> dict[str, int]:
    """Each on-topic or linked memory returned so far, with its distance in edges from an
    on-topic one (relevance.reach's paths: 0 for the on-topic memories)."""
    labels = {i: m.label for i, m in state.tools.returned.items()}
    linked = relevance.reach(topical, returns.links_of(state, store), labels)
    return {i: 0 for i in topical} | {i: path.count(",") + 1 for i, path in linked.items()}


def deepen(tools: DreamerTools, store: GraphStore, mind: str, frontier: list[str], hop: int) -> list[str]:
    """Read the memories not yet returned one edge from ``frontier`` (memories ``hop - 1`` edges
    from the on-topic ones; past the first hop along ``DEPTH_RELS`` only) into
    ``tools.returned``; their ids."""
    clock = time.perf_counter()
    rows = store.read(
        "ruminate/find_neighbours",
        mind=mind,
        uids=[f"{mind}:{i}" for i in frontier],
        rels=None if hop == 1 else list(relevance.DEPTH_RELS),
        seen=[f"{mind}:{i}" for i in sorted(tools.returned)],
        limit=HOP_LIMIT,
    )
    tools.graph_ms += (time.perf_counter() - clock) * 1000
    ids = [tools.keep(row["label"], row["id"], row["props"])["id"] for row in rows]
    log.debug("depth: hop %d from %d memories reached %d", hop, len(frontier), len(ids))
    return ids


def depth_step(state: Exploration, store: GraphStore, mind: str, sender: str | None, params: RuminationParams) -> None:
    """The depth steps out of the on-topic memories, one hop each, until one is barren (then
    diminishing returns ends rumination, unless an open gap has content in hand: returns.py);
    with nothing on topic, rumination ends here, or, for a sender, after looking at who is
    speaking (the partnership gap is closed already when the first look brought the sender's
    partnership back)."""
    if not state.topical:
        if sender is None:
            state.stopped_reason = "nothing_on_topic"
        else:
            who = _WHO[1:] if returns.rejudge(state, store).partner is not None else _WHO
            state.explored |= {t for t in NODE_TYPES if t not in who}
        return
    while not state.stopped_reason and len(state.steps) < params.max_steps - 1:
        graph_before = state.tools.graph_ms
        relevant_before = set(state.relevant)
        read = _read_layer(state, store, mind)
        if read is None:
            return  # nothing within MAX_HOPS is left to read
        layers, reached = read
        hops = "; ".join(f"hop {hop} from {', '.join(frontier)}" for hop, frontier in layers)
        returns.rejudge(state, store)
        kept = [i for i in reached if i in state.relevant]
        absorb_found(state, sorted(state.anchors))  # a gap closes only on relevant content in hand
        state.steps.append(
            StepRecord(
                number=len(state.steps),
                kind="depth",
                node_type=None,
                query=f"find_neighbours ({hops})",
                found_ids=reached,
                new_ids=reached,
                coverage_score=round(state.score, 4),
                signals=state.current_signals.as_dict(),
                signal="CONTINUE",
                synthesis=f"Hop {layers[-1][0]} from {len(layers[-1][1])} memories reached "
                + (", ".join(reached) or "nothing new")
                + (f"; relevant: {', '.join(kept)}." if kept else "."),
                tools=["find_neighbours"],
            )
        )
        if returns.settle(state, store, params.patience, relevant_before):
            state.stopped_reason = "diminishing_returns"
        state.steps[-1].graph_ms = round(state.tools.graph_ms - graph_before, 2)
        if state.yields[-1].barren:
            return  # the gap loop decides what comes next


def _read_layer(
    state: Exploration, store: GraphStore, mind: str
) -> tuple[list[tuple[int, list[str]]], list[str]] | None:
    """Read the nearest layer of memories not expanded yet (and the next ones while a read
    brings nothing back): each hop read with its frontier, and the ids reached; None when no
    memory within ``MAX_HOPS - 1`` edges of an on-topic one is left to expand."""
    distance = distances(set(returns.rejudge(state, store).topical), state, store)
    layers: list[tuple[int, list[str]]] = []
    reached: list[str] = []
    for layer in range(relevance.MAX_HOPS):
        frontier = sorted(i for i, d in distance.items() if d == layer and i not in state.expanded)
        if not frontier:
            continue
        state.expanded |= set(frontier)
        layers.append((layer + 1, frontier))
        reached = deepen(state.tools, store, mind, frontier, layer + 1)
        if reached:
            break
    return (layers, reached) if layers else None


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
