"""The Dreamer's graph tools (seed P02): one query per node type, and follow_edges.

Each ``query_*`` tool returns the memories of its type that the stimulus touches: those the
coverage map found (matches and their graph neighbours), those linked to any memory the
rumination has found so far, and those a search with the Dreamer's own words finds (``query``;
the stimulus when it gives none), relevance-filtered as in coverage. The named query of the
type orders them (the sender's partnership first, the latest conversation first, the soonest
deadline first...); the conversation tool adds the turns of recorded conversations that match
(searched apart) and the sender's own latest turns on the topic, conversations and turns taken
in turn within the tool's one limit. ``follow_edges`` returns the memories linked to one memory.
Every tool is scoped to the mind; every memory a tool returns is kept in
``returned``: it is what the Dreamer may claim (the hallucination guard checks against it)
and what the Context Object is built from.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from graphmind.llm import Tool
from graphmind.prompts._models import MemoryItem, NodeType
from graphmind.prompts.ruminate import GAP_QUERIES
from graphmind.recall import Recaller
from graphmind.ruminate.coverage import (
    CONSOLIDATED,
    DEPTH,
    PENDING,
    PENDING_FETCH,
    TURN_SEEDS,
    TURNS,
    Coverage,
    alternate,
    seeds,
    sender_turns,
)
from graphmind.store import GraphStore
from graphmind.store.records import node_to_model, shown_properties

LIMIT = 5
SEARCH_FETCH = 200
"""A tool's search asks each index for at most 200 candidates: a type's memories that are not
among the mind's best 200 matches are not strong matches of the query (and asking for more
costs in proportion to the mind's size)."""
_QUERIES: dict[NodeType, str] = {
    "Partnership": "ruminate/find_partnerships",
    "Conversation_Memory": "ruminate/find_conversations",
    "Technical_Context": "ruminate/find_technical_context",
    "Emotional_State": "ruminate/find_emotional_states",
    "Strategy_Pattern": "ruminate/find_strategy_patterns",
    "Code_Reference": "ruminate/find_related_code",
    "Failed_Attempt": "ruminate/find_failed_attempts",
    "Constraint": "ruminate/find_active_constraints",
}
_DESCRIBES = {
    "Partnership": "who is involved and the relationship with them",
    "Conversation_Memory": "past conversations: topics, key points, outcomes, and what was said (turns)",
    "Technical_Context": "the systems and components involved, their issues and status",
    "Emotional_State": "the emotions present, their intensity, counterbalance and trigger",
    "Strategy_Pattern": "approaches that worked, with success rates and steps (and consolidated patterns)",
    "Code_Reference": "the files involved and their complexity",
    "Failed_Attempt": "what was tried before and why it failed",
    "Constraint": "deadlines, limits and pressures, with severity and impact",
}


class GapQueryInput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    query: str | None = Field(
        default=None,
        max_length=500,
        description=("What to look for, in plain words; omit to get what the stimulus touches."),
    )


class FollowEdgesInput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    node_id: str = Field(min_length=1, max_length=256, description="The id of a memory found earlier.")


class DreamerTools:
    """The nine tools over one mind, for one rumination."""

    def __init__(
        self,
        store: GraphStore,
        recaller: Recaller,
        mind: str,
        stimulus: str,
        sender: str | None,
        coverage: Coverage,
        *,
        limit: int = LIMIT,
    ):
        self._store = store
        self._recaller = recaller
        self.mind = mind
        self.stimulus = stimulus
        self.sender = sender
        self._coverage = coverage
        self._limit = limit
        self.returned: dict[str, MemoryItem] = {}
        self.graph_ms = 0.0
        """Milliseconds spent in the graph (searches and queries) by this rumination's tools."""

    def tools(self) -> list[Tool]:
        made = [
            Tool(GAP_QUERIES[t], f"Query this mind's {t} memories: {_DESCRIBES[t]}.", GapQueryInput, self._gap_query(t))
            for t in _QUERIES
        ]
        made.append(
            Tool(
                "follow_edges",
                "Follow the graph's edges from one memory found earlier: the memories linked to it and how.",
                FollowEdgesInput,
                lambda args: self.follow(args.node_id),
            )
        )
        return made

    def keep(self, label: str, node_id: str, props: Mapping[str, Any]) -> dict[str, Any]:
        """Count a memory read elsewhere (the coverage query) as returned; as a tool returns it."""
        return self._keep({"id": node_id, "label": label, "props": dict(props)})

    def _gap_query(self, node_type: NodeType) -> Callable[[GapQueryInput], Any]:
        """The tool function of one node type's gap query."""
        return lambda args: self.query(node_type, args.query)

    def query(self, node_type: NodeType, text: str | None = None) -> list[dict[str, Any]]:
        """The memories of ``node_type`` the stimulus (or ``text``) touches, as the tool returns them."""
        covered = self._coverage.types[node_type]
        ids = covered.matched + covered.neighbours
        strategic = node_type == "Strategy_Pattern"
        labels = [node_type, *CONSOLIDATED] if strategic else [node_type]
        clock = time.perf_counter()
        found = self._recaller.search(self.mind, text or self.stimulus, self._limit, labels, max_fetch=SEARCH_FETCH)
        waiting = (  # searched apart: a dreamed mind's experiences would crowd its patterns out
            seeds(self._recaller.search(self.mind, text or self.stimulus, DEPTH, PENDING, max_fetch=PENDING_FETCH))
            if strategic
            else []
        )
        labels += list(PENDING) if strategic else []
        linked = (
            [
                row["uid"]
                for row in self._store.read(
                    "ruminate/find_linked",
                    mind=self.mind,
                    labels=labels,
                    limit=self._limit * 4,
                    uids=[f"{self.mind}:{i}" for i in self.returned],
                )
            ]
            if self.returned
            else []
        )
        # graph time: the searches' and queries' own time, without embedding the query text
        self.graph_ms += (time.perf_counter() - clock) * 1000 - found.timings_ms.get("embed_query", 0.0)
        uids = [*(f"{self.mind}:{i}" for i in ids), *linked, *seeds(found), *waiting]
        rows = self._rows(node_type, list(dict.fromkeys(uids)), limit=self._limit)
        if node_type == "Conversation_Memory":  # one limit for conversations and turns
            rows = alternate(rows, self._turns(text, ids))[: max(self._limit, 1)]
        return [self._keep(row) for row in rows]

    def _turns(self, text: str | None, matched: list[str]) -> list[dict[str, Any]]:
        """The rows of the conversation turns the stimulus (or ``text``) touches: those the
        coverage map found, the best matches of a search over turns, and the sender's latest on
        the topic."""
        clock = time.perf_counter()
        found = self._recaller.search(self.mind, text or self.stimulus, DEPTH, TURNS, max_fetch=PENDING_FETCH)
        said = sender_turns(self._store, self.mind, self.stimulus, self.sender)
        self.graph_ms += (time.perf_counter() - clock) * 1000 - found.timings_ms.get("embed_query", 0.0)
        uids = [*(f"{self.mind}:{i}" for i in matched), *seeds(found, limit=TURN_SEEDS), *said]
        clock = time.perf_counter()
        rows = self._store.read(
            "ruminate/find_turns", mind=self.mind, uids=list(dict.fromkeys(uids)), limit=self._limit
        )
        self.graph_ms += (time.perf_counter() - clock) * 1000
        return rows

    def _rows(self, node_type: NodeType, uids: list[str], limit: int) -> list[dict[str, Any]]:
        extra = {"sender": self.sender} if node_type == "Partnership" else {}
        clock = time.perf_counter()
        rows = self._store.read(_QUERIES[node_type], mind=self.mind, uids=uids, limit=max(limit, 1), **extra)
        self.graph_ms += (time.perf_counter() - clock) * 1000
        return rows

    def follow(self, node_id: str) -> list[dict[str, Any]]:
        """The memories linked to ``node_id`` (with the relationship and its direction)."""
        clock = time.perf_counter()
        rows = self._store.read(
            "ruminate/find_edges", mind=self.mind, uid=f"{self.mind}:{node_id}", limit=self._limit * 4
        )
        self.graph_ms += (time.perf_counter() - clock) * 1000
        return [{**self._keep(row), "rel": row["rel"], "direction": row["direction"]} for row in rows]

    def _keep(self, row: dict[str, Any]) -> dict[str, Any]:
        item = memory_item(row["label"], row["id"], row["props"])
        self.returned[item.id] = item
        return {"id": item.id, "label": item.label, "text": item.text, "properties": item.properties}


def memory_item(label: str, node_id: str, props: dict[str, Any]) -> MemoryItem:
    """A stored node as prompts see it: its derived text and its shown plain properties
    (date-times as ISO-8601 text)."""
    node = node_to_model(label, {"id": node_id, **props})
    shown = {k: v.isoformat() if hasattr(v, "isoformat") else v for k, v in shown_properties(node).items()}
    return MemoryItem(
        id=node_id,
        label=label,
        text=node.derived_text() or "",
        properties={k: v for k, v in shown.items() if _plain(v)},
    )


def _plain(value: Any) -> bool:
    if isinstance(value, list):
        return all(isinstance(v, str) for v in value)
    return isinstance(value, str | int | float | bool) or value is None
