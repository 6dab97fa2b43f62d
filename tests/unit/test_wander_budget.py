"""Wander's budget (issue 7): the cloud budget is a hard cap, checked before each call."""

from __future__ import annotations

import random

import pytest

from graphmind.llm.offline import OfflineLLM
from graphmind.wander._logic import adjacency, fenced_out
from graphmind.wander.budget import Budget, BudgetExhausted, call_bound_cents, route
from graphmind.wander.space import concept_locus_id, memory_concept, memory_domains, memory_locus_rows


@pytest.mark.parametrize("seed", range(200))
def test_the_budget_is_never_exceeded_whatever_the_costs(seed):
    """Property: random bounds and actual costs (each at most its bound), random routing wishes;
    the spend never passes the budget, and a refusal happens only when nothing fits."""
    rng = random.Random(seed)
    budget = Budget(limit_cents=rng.choice([0, 1, 5, 50, 500]) + rng.random())
    for _ in range(300):
        strong, cheap = rng.uniform(0, 20), rng.uniform(0, 3)
        try:
            choice = route(rng.random() < 0.5, strong, cheap, budget)
        except BudgetExhausted:
            assert not budget.allows(cheap)
            continue
        bound = strong if choice == "strong" else cheap
        assert budget.allows(bound)
        budget.charge(rng.uniform(0, bound))
        assert budget.spent_cents <= budget.limit_cents + 1e-9


def test_the_strong_model_only_when_wanted_and_affordable():
    budget = Budget(limit_cents=10, spent_cents=7)
    assert route(True, 2, 1, budget) == "strong"
    assert route(True, 4, 1, budget) == "cheap"
    assert route(False, 0, 0, budget) == "cheap"
    with pytest.raises(BudgetExhausted, match="would pass the budget"):
        route(True, 4, 3.5, budget)
    assert Budget(10, 8).low and not Budget(10, 7.9).low


def test_offline_calls_cost_nothing_and_priced_bounds_cover_a_repair():
    assert call_bound_cents(OfflineLLM(), "x" * 10_000, {"m": (300.0, 1500.0)}) == 0.0

    class Priced:
        provider, model, max_tokens = "anthropic", "m", 2000

    one = call_bound_cents(Priced(), "word " * 100, {"m": (300.0, 1500.0)})
    # 100 tokens in + 2000 out, twice (one repair re-ask): (2100·300 + 2000·1500)/1e6 · 2 cents
    assert one == pytest.approx(2 * (2100 * 300 + 2000 * 1500) / 1e6)
    assert call_bound_cents(Priced(), "word " * 100, {"m": (300.0, 1500.0)}, calls=2) == pytest.approx(2 * one)


def test_adjacency_scores_and_the_fence():
    band = adjacency(
        "x",
        "distance_band",
        0.4,
        current_domains=["a"],
        domains=["a", "b"],
        interestingness=None,
        uncertainty=None,
        visits=1,
    )
    assert (band.interestingness, band.novelty, band.bridge_potential, band.uncertainty) == (0.5, 0.5, 0.5, 0.6)
    bridge = adjacency(
        "y",
        "cross_domain_bridge",
        0.2,
        current_domains=["a"],
        domains=["b"],
        interestingness=0.9,
        uncertainty=None,
        visits=0,
        attractor_cosine=0.5,
    )
    assert (bridge.interestingness, bridge.bridge_potential, bridge.uncertainty) == (0.7, 1.0, 0.5)
    assert bridge.score == pytest.approx(0.3 * 0.7 + 0.3 * 1 + 0.2 * 1 + 0.2 * 0.5)
    import numpy as np

    v = np.array([1.0, 0.0], dtype=np.float32)
    assert fenced_out(v, np.array([[0.8, 0.6]], dtype=np.float32))
    assert not fenced_out(v, np.array([[0.0, 1.0]], dtype=np.float32))
    assert not fenced_out(v, np.zeros((0, 2), dtype=np.float32))


def test_a_locus_whose_domain_the_fenced_concept_covers_is_fenced_out():
    import numpy as np

    concept = np.array([1.0, 0.0, 0.0], dtype=np.float32)  # far from the fenced-out concept
    excluded = np.array([[0.0, 1.0, 0.0]], dtype=np.float32)
    near_domain = np.array([[0.0, 0.8, 0.6]], dtype=np.float32)  # cosine 0.8 to it
    far_domain = np.array([[0.0, 0.3, 0.954]], dtype=np.float32)  # cosine 0.3: a neighbour, not it
    assert fenced_out(concept, excluded, near_domain)
    assert fenced_out(concept, excluded, np.vstack([far_domain, near_domain]))
    assert not fenced_out(concept, excluded, far_domain)
    assert not fenced_out(concept, excluded, np.zeros((0, 3), dtype=np.float32))
    assert not fenced_out(concept, np.zeros((0, 3), dtype=np.float32), near_domain)


def test_memory_loci_from_memories():
    assert memory_concept("Pattern", {"name": "Naked single", "description": "d"}) == "Naked single"
    assert memory_concept("TopicEntry", {"topic": "queues", "text": "ack timeouts"}) == "queues: ack timeouts"
    assert memory_domains("Pattern", {}, ["search", "elimination"]) == ["elimination", "search"]
    assert memory_domains("Abstraction", {"level": 2, "name": "Elimination"}, []) == ["Elimination"]
    assert memory_domains("Failed_Attempt", {}, []) == ["failed attempt"]
    sources = [
        {
            "id": "p1",
            "label": "Pattern",
            "props": {"name": "Naked single"},
            "categories": ["Elimination"],
            "locus_id": None,
            "locus_hash": None,
        }
    ]
    rows = memory_locus_rows("m", sources)
    assert rows[0]["id"] == "locus-p1" and rows[0]["refers_to"] == ["m:p1"] and rows[0]["props"]["role"] == "Pattern"
    unchanged = [{**sources[0], "locus_id": "locus-p1", "locus_hash": rows[0]["text_hash"]}]
    assert memory_locus_rows("m", unchanged) == []  # nothing to re-embed
    assert concept_locus_id("s", "Idempotency  Keys") == concept_locus_id("s", "idempotency keys")
