"""Diminishing returns (issue 21, item 2): rumination ends when exploring stops paying.

Seed P02 ends rumination when "gaps stabilize", when "tension has stabilized (no more
pulling)" and "additional exploration would add noise, not signal". Here that is measured on
what each exploring step (the depth read, a gap query, a thread) *yields*:

- a **new relevant memory**: one the relevance judge (relevance.py: on topic, linked to an
  on-topic memory, the sender's partnership, or the sender's last conversation as weak) keeps
  now and did not keep before the step; or
- a **closed gap**: a node type that became covered in this step through a relevant memory of
  that type (a type covered by a memory the judge drops is not a gap closed by its content).

A step that queried the graph and yielded neither is *barren*. Rumination ends
("diminishing_returns") after ``patience`` barren steps in a row, unless an open gap still has
content to look at: a node type not yet explored that an *anchor* (below) belongs to, found
by depth or a thread but not yet looked at from its own angle. A step that did not query is
the stuck guard's business, not counted here. ``patience`` is 1: the seed's own rule
(crystallize once more exploration adds nothing); it is not fitted to any labelled mind.
``None`` turns the rule off.

Threads start only from *anchors*: memories on topic or linked to one. Relevance keeps nothing
else a thread could reach from an unrelated memory (its neighbours share nothing with the
stimulus and are not linked to what does), so such a thread has no candidate content.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from graphmind.prompts._models import NODE_TYPES, MemoryItem
from graphmind.ruminate import relevance
from graphmind.ruminate.exploration import Exploration, _as_type
from graphmind.store import GraphStore

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Judged:
    """What relevance makes of the memories returned so far."""

    relevant: frozenset[str]
    """Every memory the judge keeps (weak ones too)."""
    anchors: frozenset[str]
    """On-topic memories and those linked to one: where a thread may start."""
    topical: frozenset[str] = frozenset()
    """The on-topic memories (shared word stems)."""
    partner: str | None = None
    """The sender's partnership, when it was returned."""


@dataclass(frozen=True)
class StepYield:
    """What one exploring step added: new relevant memories and gaps closed by relevant content."""

    new_relevant: tuple[str, ...]
    closed: tuple[str, ...]

    @property
    def barren(self) -> bool:
        return not self.new_relevant and not self.closed


def judge(
    memories: Sequence[MemoryItem], links: Iterable[relevance.Link], *, stimulus: str, sender: str | None
) -> Judged:
    """The relevant memories and the anchors, by relevance's rules."""
    chosen = relevance.select(memories, links, stimulus=stimulus, sender=sender)
    return Judged(
        relevant=frozenset(m.id for m in chosen.kept),
        anchors=frozenset(chosen.topical | chosen.linked),
        topical=frozenset(chosen.topical),
        partner=chosen.partner,
    )


def step_yield(
    before: Iterable[str],
    after: Iterable[str],
    covered_before: Iterable[str],
    covered_after: Iterable[str],
    labels: Mapping[str, str],
) -> StepYield:
    """The yield of a step from the relevant ids and the covered node types before and after it;
    ``labels`` maps ids to labels. A type closes only when a relevant memory is of that type."""
    before, after = set(before), set(after)
    new = tuple(sorted(after - before))
    relevant_types = {_as_type(labels[i]) for i in after if i in labels}
    newly = set(covered_after) - set(covered_before)
    closed = tuple(t for t in NODE_TYPES if t in newly and t in relevant_types)
    return StepYield(new_relevant=new, closed=closed)


def diminishing(yields: Sequence[StepYield], patience: int | None, open_with_content: Iterable[str] = ()) -> bool:
    """True when the last ``patience`` exploring steps were all barren and no open gap has
    content in hand (never when ``patience`` is None)."""
    if patience is None or patience < 1 or len(yields) < patience or any(True for _ in open_with_content):
        return False
    return all(y.barren for y in yields[-patience:])


def open_with_content(anchors: Iterable[str], labels: Mapping[str, str], explored: Iterable[str]) -> list[str]:
    """The node types not yet explored that an anchor belongs to."""
    done = set(explored)
    types = {_as_type(labels[i]) for i in anchors if i in labels}
    return [t for t in NODE_TYPES if t in types and t not in done]


def links_of(state: Exploration, store: GraphStore) -> list[relevance.Link]:
    """The edges between the memories returned so far (one read per new set of memories)."""
    key = frozenset(state.tools.returned)
    if state.link_cache is not None and state.link_cache[0] == key:
        return state.link_cache[1]
    found: list[relevance.Link] = []
    if key:
        clock = time.perf_counter()
        mind = state.tools.mind
        rows = store.read("ruminate/list_links", mind=mind, uids=[f"{mind}:{i}" for i in sorted(key)])
        state.tools.graph_ms += (time.perf_counter() - clock) * 1000
        found = [relevance.Link(r["source"], r["rel"], r["target"]) for r in rows]
    state.link_cache = (key, found)
    return found


def rejudge(state: Exploration, store: GraphStore) -> Judged:
    """Judge everything returned so far and keep the verdict on the state."""
    tools = state.tools
    judged = judge(list(tools.returned.values()), links_of(state, store), stimulus=tools.stimulus, sender=tools.sender)
    state.relevant, state.anchors = set(judged.relevant), set(judged.anchors)
    return judged


def settle(state: Exploration, store: GraphStore, patience: int | None, before: set[str] | None = None) -> bool:
    """After an exploring step: judge it (``before``: the relevant memories before it, when the
    state was judged already), record its yield; True when returns have diminished."""
    before = set(state.relevant) if before is None else before
    covered_before = set(state.settled_types)
    rejudge(state, store)
    state.settled_types = set(state.found_types)
    step = state.steps[-1]
    if not step.queried:
        return False
    labels = {i: m.label for i, m in state.tools.returned.items()}
    gained = step_yield(before, state.relevant, covered_before, state.found_types, labels)
    step.relevant_new = list(gained.new_relevant)
    step.gaps_closed = list(gained.closed)
    state.yields.append(gained)
    pending = open_with_content(state.anchors, labels, state.explored)
    if diminishing(state.yields, patience, pending):
        log.debug("diminishing returns after step %d", step.number)
        return True
    return False
