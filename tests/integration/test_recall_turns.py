"""Recall over conversation turns expands through the graph and says how (issue 26, item 2)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from graphmind import Mind
from graphmind.recall.timeparse import parse_time

DATA = Path(__file__).resolve().parent.parent / "data" / "conversations"
CONVERSATION = "clinic"  # held out from the feature model's calibration


def _load(mind: Mind, tmp_path: Path) -> list[dict]:
    rows = [
        line
        for line in (DATA / "conversations.jsonl").read_text().splitlines()
        if json.loads(line)["session_id"].startswith(CONVERSATION + "-")
    ]
    path = tmp_path / "conv.jsonl"
    path.write_text("\n".join(rows) + "\n")
    mind.import_jsonl(path)
    questions = [json.loads(line) for line in (DATA / "questions.jsonl").read_text().splitlines()]
    return [q for q in questions if q["conversation"] == CONVERSATION]


def test_turn_recall_finds_evidence_through_the_graph(mind: Mind, tmp_path: Path) -> None:
    questions = _load(mind, tmp_path)
    found = 0
    windows = 0
    for q in questions:
        result = mind.recall(q["question"], k=10, labels=["Turn"])
        assert result.hits and all(hit.label == "Turn" for hit in result.hits)
        assert all("graph" in hit.why() for hit in result.hits)  # every turn says which path brought it
        found += bool({hit.id for hit in result.hits} & set(q["evidence"]))
        windows += any(p.startswith("IN_SESSION") for hit in result.hits for p in hit.why()["graph"])
    assert found / len(questions) >= 0.75
    assert windows > 0  # the dated questions reached sessions through their time window


def test_neighbour_turn_comes_in_along_next(mind: Mind, tmp_path: Path) -> None:
    _load(mind, tmp_path)
    hits = mind.recall("What did Owen say about the removal van quote?", k=10, labels=["Turn"]).hits
    paths = [p for hit in hits for p in hit.why()["graph"]]
    assert any(p.startswith("hybrid rank 1") for p in paths)
    assert any(p.startswith("NEXT x1 from ") for p in paths)


def test_a_known_minds_time_window_is_read_beside_the_first_stage(mind: Mind, tmp_path: Path) -> None:
    """The first turn recall learns the mind's latest session date; from then on a question's
    window is read while the first stage runs (turn_graph.read_context), not after the seeds,
    and the hits are the ones the reads after the seeds give."""
    questions = [q["question"] for q in _load(mind, tmp_path)]
    reads: list[tuple[bool, bool]] = []  # (with seeds, with a window) per read of the turn graph
    stream = mind.store.stream

    def counted(name, **params):
        if name == "recall/find_turn_graph":
            reads.append((bool(params["uids"]), params["start"] is not None))
        return stream(name, **params)

    dated = [q for q in questions if parse_time(q, dt.date(2030, 1, 1)).window is not None]
    assert dated, "the conversation's questions name no time window"
    mind.store.stream = counted  # type: ignore[method-assign]
    try:
        cold = mind.recall(dated[0], k=10, labels=["Turn"])
        assert reads[-2:] == [(True, False), (False, True)]  # the window is read after the seeds
        reads.clear()
        warm = mind.recall(dated[0], k=10, labels=["Turn"])
    finally:
        del mind.store.stream
    assert sorted(reads) == [(False, True), (True, False)]  # one read with the window, one with the seeds
    assert [h.id for h in warm.hits] == [h.id for h in cold.hits]
    assert [h.why()["graph"] for h in warm.hits] == [h.why()["graph"] for h in cold.hits]


def test_speakers_seen_once_are_not_searched_as_entities(mind: Mind, tmp_path: Path) -> None:
    """The read beside the first stage has no seeds to tell speakers from entities; the speakers
    earlier turn recalls of the mind saw are left out of its entity names."""
    _load(mind, tmp_path)
    names: list[list[str]] = []
    stream = mind.store.stream

    def spied(name, **params):
        if name == "recall/find_turn_graph" and not params["uids"]:
            names.append(params["names"])
        return stream(name, **params)

    mind.store.stream = spied  # type: ignore[method-assign]
    try:
        mind.recall("What job did Owen accept?", k=10, labels=["Turn"])  # learns Priya and Owen
        names.clear()
        mind.recall("What training post did Priya start near Leeds?", k=10, labels=["Turn"])
    finally:
        del mind.store.stream
    assert names == [["Leeds"]]


def test_turns_among_other_memories_keep_the_fused_scale(mind: Mind, tmp_path: Path) -> None:
    """A reranked turn takes its place's score: a new user saw a turn scored 0.955 above the
    one memory naming what was asked (0.030), a list no longer sorted by its own scores."""
    questions = _load(mind, tmp_path)
    mind.capture_many(
        [{"description": f"Noted for the record: {q['question']}", "outcome": "success"} for q in questions[:5]]
    )
    mind.flush()
    for q in questions[:5]:
        hits = mind.recall(q["question"], k=10).hits
        labels = {hit.label for hit in hits}
        assert "Turn" in labels and "Experience" in labels, labels
        scores = [hit.score for hit in hits]
        assert scores == sorted(scores, reverse=True), [(h.label, h.score) for h in hits]
