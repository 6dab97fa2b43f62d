"""Recall over conversation turns: the hybrid hits seed an expansion through the graph, then rerank.

read (cypher/recall/find_turn_graph) -> pure logic (turn_expand.expand, rerank) -> merged order. Each
read is one row of only the turns the expansion can add. What does not depend on the seeds (the
turns of the question's time window, the turns naming its entities) is read by ``read_context``
while recall's first stage runs; after it, one read brings the seeds, their NEXT neighbours and the
mind's latest session date (what time expressions are read against). The window is read against the
latest date the caller saw last time (``today``); a question whose window moves with the best seed
("two weeks before the trip"), or a mind whose latest date moved, reads it after the seeds instead.
Without a context, the seeds' read brings the entity and window turns too. Every read starts from an
index seek or a walk from the seeds, so a turn recall costs about the same in a 600-turn mind and a
million-turn one. Non-turn hits keep their places; the turn places are refilled by the reranked turns.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from graphmind.recall._logic import Fused
from graphmind.recall.timeparse import TimeWindow, parse_time, shift_window
from graphmind.recall.turn_expand import SEEDS, FeatureModel, Turn, expand, question_entities, rerank, shipped_model
from graphmind.store import GraphStore

log = logging.getLogger(__name__)

WINDOW_LIMIT = 200
"""The most turns a question's time window brings in (the earliest sessions of the window first):
a month of a 600-turn conversation mind holds a few dozen; a month of a million-turn one would
hold thousands, more than a rerank can use within recall's latency budget."""
ENTITY_LIMIT = 200
"""The most turns naming one of the question's entities that join the candidates (best full-text
match first); ENTITY_FETCH memories of any type are asked of the full-text index to find them."""
ENTITY_FETCH = 1000


def _turn(row: Mapping[str, Any]) -> Turn:
    return Turn(
        row["id"], row["session"], row["position"], row["speaker"], dt.date.fromisoformat(row["day"]), row["text"]
    )


def _read(
    store: GraphStore, mind: str, *, uids: list[str], names: list[str], window: TimeWindow | None = None
) -> dict[str, Any] | None:
    """The one row of recall/find_turn_graph (None when it found no turn), as an auto-commit
    query (GraphStore.stream): one round trip instead of a managed transaction's three."""
    rows = list(
        store.stream(
            "recall/find_turn_graph",
            mind=mind,
            uids=uids,
            names=names,
            start=window.start.isoformat() if window else None,
            end=window.end.isoformat() if window else None,
            window_limit=WINDOW_LIMIT,
            entity_fetch=ENTITY_FETCH,
            entity_limit=ENTITY_LIMIT,
        )
    )
    return rows[0] if rows else None


def _window(question: str, today: dt.date, best: Turn | None) -> TimeWindow | None:
    parsed = parse_time(question, today)
    if parsed.window is None and parsed.shift is not None and best is not None:
        return shift_window(best.date, parsed.shift)
    return parsed.window


@dataclass(frozen=True)
class TurnContext:
    """The turns a question brings in whatever its seeds: those of its time window (as read
    against the latest session date known then) and those naming its entities."""

    window: TimeWindow | None
    turns: list[dict[str, Any]]


@dataclass(frozen=True)
class Reranked:
    """What rerank_turns gives: the merged order, each turn's paths by uid, and what the caller
    keeps for the mind's next turn recall (its latest session date, the speakers seen)."""

    fused: list[Fused]
    paths: dict[str, list[str]]
    latest: dt.date | None
    speakers: frozenset[str] = frozenset()


def read_context(
    store: GraphStore, mind: str, question: str, today: dt.date | None, speakers: frozenset[str] = frozenset()
) -> TurnContext | None:
    """The question's TurnContext, read before the first stage ends (recall runs it beside the
    full-text search); None when it names no entity and no window is known. ``speakers`` (those
    earlier recalls of the mind saw) are people, not entities: their names bring no turns in."""
    window = parse_time(question, today).window if today is not None else None
    names = question_entities(question, sorted(speakers))
    if window is None and not names:
        return None
    row = _read(store, mind, uids=[], names=names, window=window)
    return TurnContext(window, row["turns"] if row else [])


def rerank_turns(
    store: GraphStore,
    mind: str,
    question: str,
    fused: list[Fused],
    k: int,
    model: FeatureModel | None = None,
    *,
    today: dt.date | None = None,
    context: TurnContext | None = None,
) -> Reranked:
    """The first ``k`` of ``fused`` with turns reranked through the graph. Pass the result's
    ``latest`` as ``today`` next time: the question's window is then read with the seeds, or
    beforehand by read_context, given as ``context``."""
    seeds = fused[:SEEDS]
    uids = [f.uid for f in seeds]
    if context is None:
        early = parse_time(question, today).window if today is not None else None
        head = _read(store, mind, uids=uids, names=question_entities(question, []), window=early)
    else:
        early, head = context.window, _read(store, mind, uids=uids, names=[])
    if head is None or not head["seed_uids"]:
        return Reranked(fused[:k], {}, dt.date.fromisoformat(head["today"]) if head and head["today"] else today)
    found = {row["uid"]: (row["uid"], _turn(row)) for row in head["turns"] + (context.turns if context else [])}
    by_uid = {uid: found[uid][1] for uid in head["seed_uids"]}
    turn_seeds = [f for f in seeds if f.uid in by_uid]
    latest = dt.date.fromisoformat(head["today"])
    window = _window(question, latest, by_uid[turn_seeds[0].uid])
    speakers = sorted(set(head["speakers"]))
    if window is not None and (latest != today or window != early):  # a second read for the window
        dated = _read(store, mind, uids=[], names=[], window=window)
        for row in dated["turns"] if dated else []:
            found.setdefault(row["uid"], (row["uid"], _turn(row)))
    turns = {turn.id: turn for _, turn in found.values()}
    uid_of = {turn.id: uid for uid, turn in found.values()}
    sessions: dict[str, dict[int, str]] = {}
    for turn in turns.values():
        sessions.setdefault(turn.session, {})[turn.position] = turn.id
    top = max(f.score for f in turn_seeds)
    seed_rows = [(by_uid[f.uid].id, f.score / top, _cosine(f)) for f in turn_seeds]
    cands = expand(question, seed_rows, turns, sessions, today=latest, speakers=speakers)
    cands = rerank(cands, model or shipped_model(), k)
    by_fused = {f.uid: f for f in fused}
    reranked = [replace(by_fused.get(uid_of[c.turn.id], Fused(uid_of[c.turn.id], 0.0)), score=c.score) for c in cands]
    paths = {uid_of[c.turn.id]: c.paths for c in cands}
    # A reranked turn takes a turn's place in the fused order and that place's score: the
    # model's probability is on another scale than the fused scores of the other memories, and
    # a turn scored 0.95 beside memories scored 0.03 would read (and sort) as far better.
    merged: list[Fused] = []
    for f in fused:
        if len(merged) == k:
            break
        if f.uid in by_uid:
            if reranked:
                merged.append(replace(reranked.pop(0), score=f.score))
        else:
            merged.append(f)
    floor = merged[-1].score if merged else 0.0
    merged.extend(replace(r, score=floor) for r in reranked[: k - len(merged)])
    log.debug("turn recall in %s: %d candidates through the graph, window %s", mind, len(turns), window)
    return Reranked(merged, paths, latest, frozenset(speakers))


def _cosine(f: Fused) -> float:
    """The vector index's (1 + cosine) / 2 score back on the cosine scale (0 when not found by vector)."""
    return 2 * f.vector_score - 1 if f.vector_score is not None else 0.0
