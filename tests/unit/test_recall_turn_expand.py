"""Graph expansion and the feature model over conversation turns (issue 26, item 2)."""

from __future__ import annotations

import datetime as dt

import pytest

from graphmind.recall.turn_expand import FEATURES, FeatureModel, Turn, expand, question_entities, rerank, shipped_model


def _mind() -> tuple[dict[str, Turn], dict[str, list[str]]]:
    texts = {
        "s1": (dt.date(2024, 1, 10), ["hi there", "we adopted a kitten called Biscuit", "aww", "bye"]),
        "s2": (dt.date(2024, 3, 18), ["hello", "the vet said Biscuit needs surgery", "poor thing", "speak soon"]),
        "s3": (dt.date(2024, 5, 20), ["hey", "I booked a ferry to Orkney", "nice", "night"]),
    }
    turns, sessions = {}, {}
    for sid, (day, lines) in texts.items():
        sessions[sid] = [f"{sid}-t{i}" for i in range(len(lines))]
        for i, text in enumerate(lines):
            turns[f"{sid}-t{i}"] = Turn(f"{sid}-t{i}", sid, i, ["Ana", "Bo"][i % 2], day, text)
    return turns, sessions


def test_neighbours_window_and_speaker_come_with_their_paths() -> None:
    turns, sessions = _mind()
    cands = expand("What did Bo book in May?", [("s1-t1", 1.0, 0.2)], turns, sessions, today=dt.date(2024, 6, 1))
    by_id = {c.turn.id: c for c in cands}
    assert any(p.startswith("NEXT x1 from s1-t1") for p in by_id["s1-t2"].paths)
    assert by_id["s3-t1"].features["in_window"] == 1.0
    assert any(p.startswith("IN_SESSION s3") for p in by_id["s3-t1"].paths)
    assert by_id["s3-t1"].features["speaker"] == 1.0 and "SPOKEN_BY Bo" in by_id["s3-t1"].paths
    assert by_id["s1-t1"].features["in_window"] < 0  # outside the window, scored by distance
    assert "s2-t1" not in by_id  # neither seeded, near a seed, in the window nor naming an entity


def test_named_entity_brings_turns_from_other_sessions() -> None:
    turns, sessions = _mind()
    cands = expand("Why did Biscuit see the vet?", [("s3-t1", 1.0, 0.1)], turns, sessions, today=dt.date(2024, 6, 1))
    by_id = {c.turn.id: c for c in cands}
    assert by_id["s2-t1"].features["entity"] == 1.0 and "MENTIONS Biscuit" in by_id["s2-t1"].paths


def test_relative_shift_reads_from_the_best_seed() -> None:
    turns, sessions = _mind()
    cands = expand(
        "What happened two months before the ferry booking?",
        [("s3-t1", 1.0, 0.5)],
        turns,
        sessions,
        today=dt.date(2024, 6, 1),
    )
    assert {c.turn.id for c in cands if c.features["in_window"] == 1.0} == set(sessions["s2"])


def test_model_ranks_by_its_weights() -> None:
    turns, sessions = _mind()
    cands = expand("ferry", [("s3-t1", 1.0, 0.9), ("s1-t0", 0.1, 0.0)], turns, sessions, today=dt.date(2024, 6, 1))
    only_first = FeatureModel(tuple(1.0 if f == "first" else 0.0 for f in FEATURES), 0.0)
    assert rerank(cands, only_first, 1)[0].turn.id == "s3-t1"
    inverted = FeatureModel(tuple(-1.0 if f == "first" else 0.0 for f in FEATURES), 0.0)
    assert rerank(cands, inverted, len(cands))[-1].turn.id == "s3-t1"


def test_model_round_trips_and_refuses_other_features() -> None:
    model = shipped_model()
    assert FeatureModel.from_json(model.to_json()) == model
    assert len(model.weights) == len(FEATURES)
    bad = model.to_json().replace('"overlap"', '"something_else"')
    with pytest.raises(ValueError, match="other features"):
        FeatureModel.from_json(bad)


def test_shipped_model_prefers_a_matching_turn_to_small_talk() -> None:
    turns, sessions = _mind()
    seeds = [("s3-t0", 0.6, 0.1), ("s3-t1", 0.5, 0.6)]
    top = rerank(
        expand("Where is the ferry going?", seeds, turns, sessions, today=dt.date(2024, 6, 1)), shipped_model(), 1
    )
    assert top[0].turn.id == "s3-t1"


def test_a_partial_read_of_the_graph_expands_like_the_whole_one() -> None:
    """Turn recall reads only what expansion can add (positions -> ids, the mind's speakers);
    the candidates, features and paths are those of the whole sessions."""
    turns, sessions = _mind()
    question, seeds, today = "What did Bo say about Biscuit?", [("s3-t1", 1.0, 0.4)], dt.date(2024, 6, 1)
    whole = expand(question, seeds, turns, sessions, today=today)
    kept = {c.turn.id for c in whole}
    partial = {tid: turn for tid, turn in turns.items() if tid in kept}
    by_position = {sid: {i: tid for i, tid in enumerate(ids) if tid in kept} for sid, ids in sessions.items()}
    read = expand(question, seeds, partial, by_position, today=today, speakers=["Ana", "Bo"])
    assert [(c.turn.id, c.features, c.paths) for c in read] == [(c.turn.id, c.features, c.paths) for c in whole]
    assert {"s1-t1", "s2-t1"} <= kept  # the entity's mentions, from other sessions
    # without the speakers, Bo (who spoke no turn of the partial read) would count as an entity
    wrong = expand(question, seeds, partial, by_position, today=today, speakers=["Ana"])
    assert [c.features for c in wrong] != [c.features for c in whole]


def test_question_entities_leave_out_named_speakers_and_stopwords() -> None:
    assert question_entities("When did Bo take Biscuit to Orkney?", ["Bo"]) == ["Biscuit", "Orkney"]
    assert question_entities("What did they say?", []) == []
