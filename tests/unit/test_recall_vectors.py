import numpy as np
import pytest

from graphmind.recall.vectors import VectorWrite, empty_vectors, nearest


def _copy(rows, stamp="s1", stale=0):
    copy = empty_vectors(stamp, "model", 3, stale=stale)
    for uid, label, vector in rows:
        copy.add(uid, label, vector)
    return copy


ROWS = [
    ("m:a", "Experience", [1, 0, 0]),
    ("m:b", "Constraint", [0, 1, 0]),
    ("m:c", "Experience", [1, 1, 0]),
    ("m:d", "Experience", [-1, 0, 0]),
]


def test_nearest_ranks_by_cosine_on_the_vector_index_scale():
    ranked = nearest(_copy(ROWS), np.array([2.0, 0.0, 0.0]), None, 3)
    assert [r.uid for r in ranked] == ["m:a", "m:c", "m:b"]
    assert ranked[0].score == pytest.approx(1.0)
    assert ranked[1].score == pytest.approx((1 + 2**-0.5) / 2)  # (1 + cosine) / 2
    assert ranked[2].score == pytest.approx(0.5)


def test_nearest_keeps_only_the_asked_labels_and_never_pads_with_others():
    copy = _copy(ROWS)
    assert [r.uid for r in nearest(copy, np.array([0.0, 1.0, 0.0]), ["Constraint"], 3)] == ["m:b"]
    assert nearest(copy, np.array([0.0, 1.0, 0.0]), ["Pattern"], 3) == []


def test_depth_larger_than_the_mind_returns_every_row_and_an_empty_copy_nothing():
    assert len(nearest(_copy(ROWS), np.array([0.0, 0.0, 1.0]), None, 50)) == 4
    assert nearest(_copy([]), np.array([1.0, 0.0, 0.0]), None, 10) == []


def test_adding_a_known_uid_replaces_its_vector_and_growth_keeps_earlier_rows():
    copy = _copy(ROWS)
    copy.add("m:a", "Experience", [0, 0, 1])
    assert copy.size == 4
    assert nearest(copy, np.array([0.0, 0.0, 1.0]), None, 1)[0].uid == "m:a"
    for i in range(40):
        copy.add(f"m:x{i}", "Pattern", [0, 0, -1])
    assert copy.size == 44 and len(copy.matrix) >= 44
    assert nearest(copy, np.array([0.0, 1.0, 0.0]), None, 1)[0].uid == "m:b"


def test_a_write_moves_the_stamp_and_counts_down_replaced_stale_embeddings():
    copy = _copy(ROWS, stale=3)
    copy.apply(
        VectorWrite(
            uids=["m:e", "m:b"],
            labels=["Pattern", "Constraint"],
            vectors=np.array([[0, 0, 1], [1, 0, 0]], dtype=np.float32),
            previous="s1",
            stamp="s2",
            replaced_stale=2,
        )
    )
    assert (copy.stamp, copy.stale, copy.size) == ("s2", 1, 5)
    assert [r.uid for r in nearest(copy, np.array([1.0, 0.0, 0.0]), ["Constraint"], 5)] == ["m:b"]
