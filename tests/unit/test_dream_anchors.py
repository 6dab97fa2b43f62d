"""Anchors: which of a run's experiences grow a pattern of an earlier run (no database)."""

from __future__ import annotations

import numpy as np

from graphmind.dream.anchors import Anchors, claims, own_level


def _unit(rows: list[list[float]]) -> np.ndarray:
    x = np.asarray(rows, np.float64)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def _two_patterns() -> Anchors:
    """Pattern 0: three anchors close together (one technique); pattern 1: three elsewhere. Too
    few rivals (6 anchors in all) for ``rival_level``: only chance and the pattern's own
    cohesion bar a member."""
    tight = [[1.0, 0.15, 0.0, 0.0], [1.0, -0.15, 0.05, 0.0], [1.0, 0.0, -0.15, 0.0]]
    other = [[0.0, 0.0, 0.0, 1.0], [0.1, 0.0, 0.0, 1.0], [0.0, 0.1, 0.0, 1.0]]
    return Anchors(_unit(tight + other), ["t"] * 6, [0, 0, 0, 1, 1, 1], bar=lambda m: 0.1)


def test_own_level_is_how_alike_a_pattern_s_anchors_are_to_each_other():
    anchors = _two_patterns()
    assert own_level(anchors.vectors, [0, 1, 2]) > 0.9
    assert own_level(anchors.vectors, [0, 1]) == -1.0  # two anchors: one cosine, no quantile


def test_a_member_of_another_technique_does_not_grow_a_pattern_of_a_small_mind():
    """A member the clustering put beside pattern 0's anchors, well above chance (cosine ~0.6)
    but far less alike than the anchors are to each other, stays free; a close one grows it.
    Before ``own_level``, in a mind of few patterns (no rivals), both grew it: grab-bags."""
    anchors = _two_patterns()
    members = _unit([[1.0, 0.0, 0.0, 0.05], [0.6, 0.8, 0.0, 0.0]])
    labels = np.array([0, 0])
    anchor_labels = np.array([0, 0, 0, 1, 1, 1])
    claimed = claims([10, 11], members, labels, anchor_labels, anchors)
    assert claimed == {10: 0}


def test_where_other_patterns_have_anchors_enough_they_judge_and_not_the_own_bar():
    """Twelve rival anchors far away: a member less alike to pattern 0's tight anchors than they
    are to each other, but far above the rivals, grows it (in a big mind the rivals already tell
    another technique apart; the own bar there cost two nights of CLINC150 0.03 ARI)."""
    tight = [[1.0, 0.15, 0.0, 0.0], [1.0, -0.15, 0.05, 0.0], [1.0, 0.0, -0.15, 0.0]]
    rivals = [[0.0, 0.1 * (k % 3), 0.1 * (k % 2), 1.0] for k in range(12)]
    anchors = Anchors(_unit(tight + rivals), ["t"] * 15, [0, 0, 0] + [1 + k % 4 for k in range(12)], bar=lambda m: 0.1)
    member = _unit([[1.0, 0.0, 0.0, 0.3]])  # cosine ~0.95 to the anchors, below their own ~0.98
    assert own_level(anchors.vectors, [0, 1, 2]) > float((anchors.vectors[:3] @ member[0]).mean())
    labels = np.array([0] * 3 + [1] * 12)
    assert claims([30], member, np.array([0]), labels, anchors) == {30: 0}
