"""Recall over conversation turns: the hybrid hits seed an expansion through the graph, then rerank.

read (cypher/recall/find_turn_graph) -> pure logic (turn_expand.expand, rerank) -> merged order.
Non-turn hits keep their places; the turn places are refilled by the reranked turns.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from dataclasses import replace

from graphmind.recall._logic import Fused
from graphmind.recall.timeparse import parse_time, shift_window
from graphmind.recall.turn_expand import SEEDS, FeatureModel, Turn, expand, rerank, shipped_model
from graphmind.store import GraphStore

log = logging.getLogger(__name__)


def _names(question: str) -> list[str]:
    """Capitalised words after the first, lower case: the names a question may mention."""
    words = re.findall(r"\b[A-Z][a-z]{2,}\b", question)
    return sorted({w.lower() for w in words[1:]} | {w.lower() for w in words[:1] if not question.startswith(w)})


def _read(
    store: GraphStore, mind: str, uids: list[str], window: tuple[str, str] | None, names: list[str]
) -> dict[str, tuple[str, Turn]]:
    start, end = window if window else (None, None)
    rows = store.read("recall/find_turn_graph", mind=mind, uids=uids, start=start, end=end, names=names)
    return {
        row["id"]: (
            row["uid"],
            Turn(
                row["id"],
                row["session"],
                row["position"],
                row["speaker"],
                dt.date.fromisoformat(row["day"]),
                row["text"],
            ),
        )
        for row in rows
    }


def rerank_turns(
    store: GraphStore, mind: str, question: str, fused: list[Fused], k: int, model: FeatureModel | None = None
) -> tuple[list[Fused], dict[str, list[str]]]:
    """The first ``k`` of ``fused`` with turns reranked through the graph, and each turn's paths by uid."""
    seeds = fused[:SEEDS]
    names = _names(question)
    found = _read(store, mind, [f.uid for f in seeds], None, names)
    if not found:
        return fused[:k], {}
    today = max(t.date for _, t in found.values())
    parsed = parse_time(question, today)
    by_uid = {uid: turn for uid, turn in found.values()}
    turn_seeds = [f for f in seeds if f.uid in by_uid]
    window = parsed.window
    if window is None and parsed.shift is not None and turn_seeds:
        window = shift_window(by_uid[turn_seeds[0].uid].date, parsed.shift)
    if window is not None:
        found.update(
            _read(store, mind, [f.uid for f in seeds], (window.start.isoformat(), window.end.isoformat()), names)
        )
    turns = {turn.id: turn for _, turn in found.values()}
    uid_of = {turn.id: uid for uid, turn in found.values()}
    sessions: dict[str, list[str]] = {}
    for turn in sorted(turns.values(), key=lambda t: (t.session, t.position)):
        sessions.setdefault(turn.session, []).append(turn.id)
    top = max(f.score for f in turn_seeds) if turn_seeds else 1.0
    seed_rows = [(by_uid[f.uid].id, f.score / top, _cosine(f)) for f in turn_seeds]
    cands = rerank(expand(question, seed_rows, turns, sessions, today=today), model or shipped_model(), k)
    by_fused = {f.uid: f for f in fused}
    reranked = [replace(by_fused.get(uid_of[c.turn.id], Fused(uid_of[c.turn.id], 0.0)), score=c.score) for c in cands]
    paths = {uid_of[c.turn.id]: c.paths for c in cands}
    merged: list[Fused] = []
    for f in fused:
        if len(merged) == k:
            break
        if f.uid in by_uid:
            if reranked:
                merged.append(reranked.pop(0))
        else:
            merged.append(f)
    merged.extend(reranked[: k - len(merged)])
    log.debug("turn recall in %s: %d candidates through the graph, window %s", mind, len(turns), window)
    return merged, paths


def _cosine(f: Fused) -> float:
    """The vector index's (1 + cosine) / 2 score back on the cosine scale (0 when not found by vector)."""
    return 2 * f.vector_score - 1 if f.vector_score is not None else 0.0
