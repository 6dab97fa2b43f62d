"""A cluster made by meaning must be more alike than texts about unrelated matters are by
chance in the same embedding space (graphmind.dream.coherence)."""

from __future__ import annotations

import numpy as np
import pytest

from graphmind.dream import DreamParams, compress
from graphmind.dream.coherence import above_chance, chance_level, chance_levels, cohesion
from graphmind.dream.items import ExperienceRow
from graphmind.embed import HashingEmbedder


def test_cohesion_is_the_mean_cosine_over_pairs():
    x = np.eye(3, dtype=np.float32)
    assert cohesion(x) == 0.0
    assert abs(cohesion(np.ones((4, 2), np.float32) / np.sqrt(2)) - 1.0) < 1e-6
    a, b = np.array([1.0, 0.0]), np.array([0.6, 0.8])
    assert abs(cohesion(np.vstack([a, b, a])) - (0.6 + 1.0 + 0.6) / 3) < 1e-6


def test_the_chance_level_falls_with_the_size_and_sits_above_the_mean():
    rng = np.random.default_rng(1)
    ref = rng.normal(size=(60, 16)) + 0.5  # a shared component: chance cosine ~0.2
    ref /= np.linalg.norm(ref, axis=1, keepdims=True)
    levels = chance_levels(ref)
    sims = ref @ ref.T
    mean = (sims.sum() - 60) / (60 * 59)
    assert levels[2] > levels[3] > levels[10] > levels[30] > mean
    assert levels[2] < 1.0


def test_the_chance_level_follows_the_embedder():
    hashing = chance_level(HashingEmbedder())
    assert 0.1 < hashing(30) < hashing(3) < 0.9
    assert hashing(500) == hashing(30)


def lump_and_group(seed: int = 0):
    """Five texts on unrelated matters (pairwise cosine ~0.17: the style they share) and six
    near-copies of one thing (a group); the two sets are orthogonal."""
    rng = np.random.default_rng(seed)
    axes = np.eye(12, dtype=np.float32)
    unrelated = 0.9 * axes[:5] + 0.4 * axes[11]
    group = axes[5] + rng.normal(scale=0.05, size=(6, 12)).astype(np.float32) * (axes[5] + axes[6] + axes[7])
    x = np.vstack([unrelated, group])
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def test_a_cluster_no_more_alike_than_chance_makes_no_pattern_and_its_members_wait():
    x = lump_and_group()
    rows = [ExperienceRow(id=f"e{i}", description=f"text {i}", outcome="success") for i in range(len(x))]
    level = lambda size: 0.2  # noqa: E731 - chance cohesion in this space
    clusters, left, _, _ = compress.cluster(
        rows, x, list(range(len(x))), np.ones(len(x), int), DreamParams(), chance=level
    )
    assert [sorted(c.members) for c in clusters] == [list(range(5, 11))]
    assert left == [0, 1, 2, 3, 4]
    # Without the check, k-NN communities lump the unrelated ones into patterns (the graph is
    # forced here: a batch this small is clustered by small_batch.py, which keeps them apart too).
    graph = DreamParams(ratio_min_experiences=1)
    unchecked, _, _, _ = compress.cluster(rows, x, list(range(len(x))), np.ones(len(x), int), graph)
    assert any(set(c.members) <= set(range(5)) for c in unchecked)
    small, alone, _, _ = compress.cluster(rows, x, list(range(len(x))), np.ones(len(x), int), DreamParams())
    assert [sorted(c.members) for c in small] == [list(range(5, 11))] and alone == [0, 1, 2, 3, 4]


def test_a_named_strategy_is_kept_whatever_its_cohesion():
    x = lump_and_group()[:5]
    rows = [ExperienceRow(id=f"e{i}", description=f"t{i}", outcome="success", strategy_used="triage") for i in range(5)]
    clusters, left, _, _ = compress.cluster(
        rows, x, list(range(5)), np.ones(5, int), DreamParams(), chance=lambda n: 0.9
    )
    assert [sorted(c.members) for c in clusters] == [[0, 1, 2, 3, 4]] and left == []


def test_above_chance_normalises_and_accepts_one_member():
    assert above_chance(np.array([[3.0, 0.0]]), lambda n: 0.99)
    assert above_chance(np.array([[3.0, 0.1], [2.0, 0.0]]), lambda n: 0.9)
    assert not above_chance(np.array([[3.0, 0.0], [0.0, 2.0]]), lambda n: 0.1)


def test_the_chance_affinity_falls_with_the_number_of_texts_compared_to():
    from graphmind.dream.coherence import affinity_levels

    rng = np.random.default_rng(3)
    x = rng.normal(size=(60, 32))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    levels = affinity_levels(x)
    assert levels[0] == 1.0 and 0 < levels[10] < levels[3] < levels[1] < 1
    same = np.tile(x[:1], (10, 1))
    assert affinity_levels(same)[5] == pytest.approx(1.0)
