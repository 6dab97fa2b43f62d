from datetime import UTC, datetime, timedelta

import pytest

from graphmind.prompts._models import NODE_TYPES
from graphmind.recall import Candidates
from graphmind.recall._logic import Ranked
from graphmind.ruminate.coverage import coverage_from_row, phrases, seeds
from graphmind.ruminate.gaps import (
    EnergisedNode,
    GapWeights,
    completeness,
    coverage_score,
    prioritize,
    recency,
    signals,
)

NOW = datetime(2026, 11, 22, tzinfo=UTC)


def _node(label="Emotional_State", orphan=False, **props):
    return EnergisedNode(id="n", label=label, props=props, orphan=orphan)


def test_composite_weights_the_three_signals_as_the_seed_does():
    nodes = [
        _node(
            emotion="frustration",
            intensity=0.8,
            context="c",
            counterbalance="d",
            trigger="t",
            created_at=NOW.isoformat(),
        ),
        _node(orphan=True, emotion="pride"),
    ]
    got = signals(0.7, nodes, now=NOW)
    assert got.semantic == pytest.approx(0.3) and got.semantic_level == "low"
    assert got.structural == 0.5
    # quality: node 1 complete and new (0.7 + 0.3), node 2 one field of five, no date (0.14 + 0.15)
    assert got.quality == pytest.approx(1 - (1.0 + 0.29) / 2)
    assert got.composite == pytest.approx(0.4 * 0.3 + 0.3 * got.quality + 0.3 * 0.5)
    heavy = signals(0.7, nodes, now=NOW, weights=GapWeights(semantic=1.0, quality=0.0, structural=0.0))
    assert heavy.composite == pytest.approx(0.3)


def test_nothing_energised_and_nothing_similar_is_the_widest_gap():
    got = signals(None, [], now=NOW)
    assert (got.semantic, got.quality, got.structural, got.composite) == (1.0, 1.0, 1.0, 1.0)
    assert got.semantic_level == "high"


def test_completeness_counts_the_types_own_fields_and_recency_halves_every_90_days():
    assert completeness(_node("Constraint", description="d")) == pytest.approx(1 / 5)
    old = _node(timestamp=(NOW - timedelta(days=90)).isoformat())
    assert recency(old, NOW) == pytest.approx(0.5)
    assert recency(_node(), NOW) == 0.5


def test_v1_coverage_score_is_the_share_of_types_without_data():
    assert coverage_score([]) == 1.0
    assert coverage_score(["Partnership", "Constraint", "Pattern"]) == pytest.approx(6 / 8)


def test_keywords_rank_first_then_similarity_orders_the_rest():
    gaps = ["Emotional_State", "Strategy_Pattern", "Constraint", "Technical_Context", "Partnership"]
    order = prioritize(
        gaps,
        "Hey Felix, the race condition is back.",
        sender="Nicolas",
        similarity={"Strategy_Pattern": 0.6, "Emotional_State": 0.2},
    )
    assert order == ["Partnership", "Technical_Context", "Strategy_Pattern", "Emotional_State", "Constraint"]
    assert prioritize(gaps, "what about the launch deadline?")[0] == "Constraint"
    assert prioritize(["Partnership"], "talk to marco", people=["Marco"]) == ["Partnership"]
    assert prioritize([], "anything") == []


def test_phrases_are_file_names_and_identifiers():
    assert phrases("stimulus_integrator.py races again, see src/graph/traversal.py. Fine.") == [
        "stimulus_integrator.py",
        "src/graph/traversal.py",
    ]


def test_seeds_keep_similar_vectors_and_strong_text_matches():
    found = Candidates(
        vector=[Ranked("m:a", 0.8), Ranked("m:b", 0.6)],  # cosines 0.6 and 0.2
        text=[Ranked("m:c", 4.0), Ranked("m:a", 2.5), Ranked("m:d", 1.0)],
        terms=[],
    )
    assert seeds(found) == ["m:a", "m:c"]
    assert seeds(Candidates(vector=[], text=[], terms=[])) == []


def test_consolidated_nodes_count_for_strategy_and_similarity_is_the_best_cosine():
    row = {
        "coverage": [
            {"label": "Strategy_Pattern", "matched": [], "neighbours": ["s1"], "best_score": 0.6},
            {"label": "Pattern", "matched": ["p1"], "neighbours": [], "best_score": 0.75},
            {"label": "Constraint", "matched": [], "neighbours": [], "best_score": None},
        ],
        "energised": [{"id": "p1", "label": "Pattern", "props": {}, "orphan": True}],
    }
    coverage = coverage_from_row(row)
    strategy = coverage.types["Strategy_Pattern"]
    assert strategy.matched == ["p1"] and strategy.neighbours == ["s1"]
    assert strategy.similarity == pytest.approx(0.5)
    assert coverage.relevant_types == ["Strategy_Pattern"]
    assert coverage.best_cosine == pytest.approx(0.5) and coverage.signals.structural == 1.0
    assert set(coverage.types) == set(NODE_TYPES) and len(NODE_TYPES) == 8
