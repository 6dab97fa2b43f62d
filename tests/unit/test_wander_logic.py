"""Wander's rules (issue 7, first step): status machine, scoring and softmax selection,
distance band, scope, resonance decay and lifecycle, crystallization, budget, breaker."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from graphmind.errors import ValidationError
from graphmind.wander._logic import (
    Adjacency,
    CircuitBreaker,
    SessionConfig,
    budget_low,
    checkpoint_due,
    current_status,
    decayed,
    distance_band,
    drift,
    reinforce,
    should_crystallize,
    should_use_cloud,
    softmax_select,
    transition,
    within_scope,
    would_exceed,
)


def test_the_status_machine_refuses_invalid_transitions():
    assert transition("active", "paused") == "paused" and transition("paused", "active") == "active"
    assert transition("active", "completed") == "completed" and transition("paused", "abandoned") == "abandoned"
    for current, target in [("paused", "completed"), ("completed", "active"), ("abandoned", "paused")]:
        with pytest.raises(ValidationError, match=f"a {current} session cannot become {target}"):
            transition(current, target)


def test_the_composite_score_uses_the_specs_weights():
    assert Adjacency("x", interestingness=1, novelty=0, bridge_potential=0, uncertainty=0).score == 0.3
    assert Adjacency("x", interestingness=0.5, novelty=0.5, bridge_potential=1, uncertainty=0).score == 0.5


def test_softmax_selection_follows_the_temperature():
    rng = random.Random(0)
    scores = [0.9, 0.5, 0.1]
    draws = Counter(softmax_select(scores, 0.7, rng) for _ in range(20_000))
    expected = np.exp(np.array(scores) / 0.7) / np.exp(np.array(scores) / 0.7).sum()
    assert all(abs(draws[i] / 20_000 - expected[i]) < 0.02 for i in range(3))
    assert softmax_select(scores, 0, rng) == 0
    cold = Counter(softmax_select(scores, 0.05, rng) for _ in range(1000))
    assert cold[0] > 990
    assert softmax_select(scores, 0.7, random.Random(5)) == softmax_select(scores, 0.7, random.Random(5))


def test_distance_band_keeps_related_not_nearest():
    assert distance_band(np.array([0.95, 0.6, 0.2, 0.35, 0.7])) == [4, 1, 3]


def test_scope_checks_domains_and_drift_from_the_seed_and_fence():
    seed, fence = np.array([1.0, 0, 0]), np.array([0, 1.0, 0])
    far = np.array([0, 0, 1.0])
    assert drift(far, np.vstack([seed, fence])) == 1.0
    assert drift(np.array([0.6, 0.8, 0]), np.vstack([seed, fence])) == pytest.approx(0.2)
    config = SessionConfig()
    assert within_scope(["math"], 0.5, config) == (True, None)
    assert within_scope(["math"], 0.9, config)[0] is False
    assert within_scope(["politics"], 0.1, config, forbidden=["politics"]) == (False, "forbidden domain politics")
    assert within_scope(["art"], 0.1, config, allowed=["math"]) == (False, "outside the allowed domains")


def test_resonances_decay_ten_percent_a_day_and_graduate_or_fade():
    assert decayed(1.0, 0.1, 1) == pytest.approx(0.9) and decayed(1.0, 0.1, 7) == pytest.approx(0.9**7)
    strength, count, status = reinforce(1.0, 1, 0.1, 1, "candidate")
    assert (strength, count, status) == (pytest.approx(1.9), 2, "candidate")
    strength, count, status = reinforce(strength, count, 0.1, 0, status)
    assert count == 3 and status == "confirmed"
    assert current_status(1.0, 0.1, 16, "candidate") == "invalidated"  # 0.9^16 = 0.185 < 0.2
    assert current_status(1.0, 0.1, 15, "candidate") == "candidate"


def test_crystallization_cloud_routing_budget_breaker_and_checkpoints():
    assert should_crystallize([("confirmed", 1.6)], 0.2, 0.0)
    assert not should_crystallize([("candidate", 3.0)], 0.5, 0.5)
    assert should_crystallize([], 0.85, 0.5)
    assert should_use_cloud(["math"], ["art"], 0.1, 0, 5, 500)
    assert not should_use_cloud(["math"], ["math"], 0.5, 0, 5, 500)
    assert not should_use_cloud(["math"], ["art"], 0.9, 498, 5, 500)  # refused before it would exceed
    assert would_exceed(496, 5, 500) and not would_exceed(495, 5, 500)
    assert budget_low(400, 500) and not budget_low(399, 500)
    breaker = CircuitBreaker()
    assert [breaker.record(failed=True) for _ in range(3)] == [None, None, "3 consecutive failures"]
    breaker = CircuitBreaker()
    assert breaker.record(failed=True) is None and breaker.record() is None and breaker.failures == 0
    assert [CircuitBreaker(max_fence_hits=2).record(fence_hit=True)] == [None]
    assert [checkpoint_due(s, 50) for s in (0, 49, 50, 100)] == [False, False, True, True]
