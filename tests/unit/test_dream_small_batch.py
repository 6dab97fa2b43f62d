"""Small batches are clustered by agglomeration and silhouette, not by the k-NN graph (pure)."""

from __future__ import annotations

import numpy as np
from sklearn.metrics import adjusted_rand_score

from graphmind.dream.small_batch import small_batch_labels

RNG = np.random.default_rng(7)
DIM = 48


def around(centre: np.ndarray, count: int, spread: float) -> np.ndarray:
    return centre + spread * RNG.normal(size=(count, DIM))


def axis(i: int) -> np.ndarray:
    v = np.zeros(DIM)
    v[i] = 1.0
    return v


def test_groups_that_stand_apart_are_kept_and_a_stray_waits_alone():
    x = np.vstack([around(axis(0), 4, 0.08), around(axis(1), 3, 0.08), around(axis(2), 1, 0.08)])
    labels = small_batch_labels(x, 0.1, 0.6)
    assert len(set(labels[:4])) == 1 and len(set(labels[4:7])) == 1 and labels[0] != labels[4]
    assert labels[7] not in set(labels[:7])


def test_texts_with_no_groups_mostly_wait_alone():
    labels = small_batch_labels(RNG.normal(size=(20, DIM)), 0.1, 0.6)
    sizes = np.bincount(labels)
    assert sizes.max() <= 3 and (sizes == 1).sum() >= 10  # chance pairs at most (compress tests them too)


def test_a_tight_batch_stays_one_group_and_three_rows_are_judged_whole():
    x = around(axis(3), 8, 0.05)
    assert set(small_batch_labels(x, 0.1, 0.6)) == {0}
    assert list(small_batch_labels(x[:3], 0.1, 0.6)) == [0, 0, 0]
    assert len(set(small_batch_labels(RNG.normal(size=(3, DIM)), 0.1, 0.6))) == 3


def test_two_groups_are_found_and_a_blurred_copy_is_not_taken_for_them():
    """The check can fail: the same two groups blurred into each other are not recovered."""
    truth = [0] * 5 + [1] * 5
    clean = np.vstack([around(axis(4), 5, 0.1), around(axis(5), 5, 0.1)])
    assert adjusted_rand_score(truth, small_batch_labels(clean, 0.1, 0.6)) == 1.0
    blurred = np.vstack([around(axis(4), 5, 0.9), around(axis(5), 5, 0.9)])
    assert adjusted_rand_score(truth, small_batch_labels(blurred, 0.1, 0.6)) < 0.5
