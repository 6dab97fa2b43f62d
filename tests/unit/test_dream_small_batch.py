"""Small batches are clustered by agglomeration and silhouette, not by the k-NN graph (pure)."""

from __future__ import annotations

import numpy as np
from sklearn.metrics import adjusted_rand_score

from graphmind.dream.params import DreamParams
from graphmind.dream.small_batch import small_batch_labels

RNG = np.random.default_rng(7)
PARAMS = DreamParams()
DIM = 48


def around(centre: np.ndarray, count: int, spread: float) -> np.ndarray:
    return centre + spread * RNG.normal(size=(count, DIM))


def axis(i: int) -> np.ndarray:
    v = np.zeros(DIM)
    v[i] = 1.0
    return v


def test_groups_that_stand_apart_are_kept_and_a_stray_waits_alone():
    x = np.vstack([around(axis(0), 4, 0.08), around(axis(1), 3, 0.08), around(axis(2), 1, 0.08)])
    labels = small_batch_labels(x, PARAMS)
    assert len(set(labels[:4])) == 1 and len(set(labels[4:7])) == 1 and labels[0] != labels[4]
    assert labels[7] not in set(labels[:7])


def test_texts_with_no_groups_mostly_wait_alone():
    labels = small_batch_labels(RNG.normal(size=(20, DIM)), PARAMS)
    sizes = np.bincount(labels)
    assert sizes.max() <= 3 and (sizes == 1).sum() >= 10  # chance pairs at most (compress tests them too)


def test_a_tight_batch_stays_one_group_but_one_too_small_to_split_waits():
    """Under two patterns' worth of rows no split can show, so a batch alike as a whole (five
    notes of five jobs of one trade, a trial's first dream) is no evidence of one technique."""
    x = around(axis(3), 8, 0.05)
    assert set(small_batch_labels(x, PARAMS)) == {0}
    assert set(small_batch_labels(x[:6], PARAMS)) == {0}
    assert len(set(small_batch_labels(x[:5], PARAMS))) == 5 and len(set(small_batch_labels(x[:3], PARAMS))) == 3
    two_and_three = np.vstack([around(axis(3), 3, 0.02), around(axis(3) + 0.2 * axis(4), 2, 0.02)])
    assert len(set(small_batch_labels(two_and_three, PARAMS))) == 5  # no twin-joined parts either
    assert len(set(small_batch_labels(RNG.normal(size=(3, DIM)), PARAMS))) == 3


def test_two_groups_are_found_and_a_blurred_copy_is_not_taken_for_them():
    """The check can fail: the same two groups blurred into each other are not recovered."""
    truth = [0] * 5 + [1] * 5
    clean = np.vstack([around(axis(4), 5, 0.1), around(axis(5), 5, 0.1)])
    assert adjusted_rand_score(truth, small_batch_labels(clean, PARAMS)) == 1.0
    blurred = np.vstack([around(axis(4), 5, 0.9), around(axis(5), 5, 0.9)])
    assert adjusted_rand_score(truth, small_batch_labels(blurred, PARAMS)) < 0.5


def test_two_parts_as_alike_as_twin_patterns_are_one():
    """Templated lines ("Solved puzzle: 40 naked singles ...") split by their numbers would make two
    patterns the dream then prunes as twins; a batch of two distinct groups stays two."""
    near = np.vstack([around(axis(6), 4, 0.02), around(axis(6) + 0.35 * axis(7), 4, 0.02)])
    assert len(set(small_batch_labels(near, DreamParams(strategy_min_cohesion=0.99)))) == 1
    apart = np.vstack([around(axis(6), 4, 0.02), around(axis(7), 4, 0.02)])
    assert len(set(small_batch_labels(apart, PARAMS))) == 2


def test_a_tight_core_does_not_carry_a_straggler_into_its_group():
    x = np.vstack([around(axis(8), 3, 0.05), *(around(axis(9 + i), 1, 0.05) for i in range(4))])
    labels = small_batch_labels(x, PARAMS)
    assert len(set(labels[:3])) == 1 and not set(labels[3:]) & set(labels[:3])


def test_twins_do_not_make_pairs_of_twins_the_best_cut():
    """One technique told word for word of several things (the names cut) gives identical
    rows: a cut into pairs of twins must not look best, or every technique waits alone."""
    rng = np.random.default_rng(0)
    tellings = [axis(k) + 0.2 * rng.normal(size=(3, DIM)) for k in range(4)]
    x = np.vstack([np.repeat(t, 2, axis=0) for t in tellings])  # each telling twice, word for word
    labels = small_batch_labels(x, PARAMS)
    assert adjusted_rand_score(np.repeat(np.arange(4), 6), labels) > 0.9, labels  # 0.28 when twins chose the cut


def test_two_techniques_told_word_for_word_stay_two():
    """Each technique's tellings are twins (two distinct texts in all): the cut is judged on
    every row, not on the two texts alone (where no cut can be judged)."""
    rng = np.random.default_rng(1)
    a, b = axis(0) + 0.1 * rng.normal(size=DIM), axis(1) + 0.1 * rng.normal(size=DIM)
    x = np.vstack([a, a, a, b, b, b])
    labels = small_batch_labels(x, PARAMS)
    assert len(set(labels[:3])) == 1 and len(set(labels[3:])) == 1 and labels[0] != labels[3], labels
