"""Inverted lists over a large copy (recall/partition.py): calibrated to find the exact
neighbours, and still finding rows added or replaced after they were built."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from graphmind.recall.partition import TARGET_RECALL, build
from graphmind.recall.vectors import VectorWrite, empty_vectors, nearest


def _units(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def _blobs(rows: int, blobs: int, spread: float, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(blobs, 48))
    return _units(centres[rng.integers(0, blobs, rows)] + spread * rng.normal(size=(rows, 48)))


def _copy(matrix: np.ndarray, labels: tuple[str, ...] = ("Turn",)):
    copy = empty_vectors("s1", "model", matrix.shape[1], capacity=len(matrix))
    for i, row in enumerate(matrix):
        copy.add(f"m:{i}", labels[i % len(labels)], row)
    return copy


def _recall(partitioned, exact, queries: np.ndarray, depth: int = 10) -> float:
    """The share of the exact ``depth`` best the partitioned search returns (ties count as found)."""
    found = []
    for q in queries:
        want = nearest(exact, q, None, depth)
        got = nearest(partitioned, q, None, depth)
        found.append(sum(g.score >= want[-1].score - 1e-6 for g in got) / depth)
    return float(np.mean(found))


@pytest.fixture(scope="module")
def matrix() -> np.ndarray:
    return _blobs(6000, 40, 0.6)


@pytest.fixture(scope="module")
def queries() -> np.ndarray:
    rng = np.random.default_rng(7)  # held-out points: near the data, none of its rows
    return _units(_blobs(200, 40, 0.6)[:100] + 0.2 * rng.normal(size=(100, 48)))


def test_lists_are_calibrated_to_the_target_and_scan_a_fraction_of_the_rows(matrix, queries):
    order, partition = build(matrix)
    assert sorted(order.tolist()) == list(range(len(matrix)))
    assert partition.recall >= TARGET_RECALL and partition.nprobe < partition.lists
    copy = _copy(matrix)
    copy.partition_by(order, partition)
    assert _recall(copy, _copy(matrix), queries) >= 0.9  # held-out queries, not the sampled rows
    rows, _ = partition.scan(copy.matrix, copy.size, queries[0], 20)
    assert len(rows) < 0.6 * len(matrix)


def test_probing_one_list_misses_neighbours_the_calibration_would_find(matrix, queries):
    """The measure can fail: forced to a single probe, the same search loses neighbours."""
    order, partition = build(matrix)
    copy = _copy(matrix)
    copy.partition_by(order, partition)
    partition.nprobe = 1
    assert _recall(copy, _copy(matrix), queries) < 0.85


def test_structureless_vectors_need_more_probes_than_clustered_ones():
    rng = np.random.default_rng(3)
    _, clustered = build(_blobs(4000, 40, 0.3))
    _, uniform = build(_units(rng.normal(size=(4000, 48))))
    assert uniform.recall >= TARGET_RECALL and clustered.recall >= TARGET_RECALL
    assert uniform.nprobe / uniform.lists > clustered.nprobe / clustered.lists


def test_reordering_keeps_each_uid_with_its_vector_and_label(matrix):
    copy = _copy(matrix, labels=("Turn", "Experience"))
    copy.partition_by(*build(matrix))
    for i in (0, 17, 4321):
        assert nearest(copy, matrix[i], None, 1)[0].uid == f"m:{i}"
        label = ("Turn", "Experience")[i % 2]
        assert {r.uid for r in nearest(copy, matrix[i], [label], 5)} >= {f"m:{i}"}
        assert f"m:{i}" not in {r.uid for r in nearest(copy, matrix[i], ["Constraint"], 5)}


def test_rows_added_or_moved_after_the_build_are_still_found(matrix):
    copy = _copy(matrix)
    copy.partition_by(*build(matrix))
    far = _blobs(2, 1, 0.0, seed=99)
    copy.add("m:new", "Turn", far[0])  # the tail: no list holds it
    assert nearest(copy, far[0], None, 1)[0].uid == "m:new"
    moved = copy.uids[0]
    copy.add(moved, "Turn", -far[0])  # replaced by a vector that belongs to another list
    assert copy.partition is not None and copy.partition.misplaced == {0}
    ranked = nearest(copy, -far[0], None, 3)
    assert ranked[0].uid == moved and len({r.uid for r in ranked}) == 3  # found once
    assert not copy.partition.stale(copy.size)
    for i in range(int(0.1 * len(matrix)) + 1):
        copy.add(f"m:tail{i}", "Turn", matrix[i])
    assert copy.partition.stale(copy.size)  # time to build the lists again


def test_a_search_for_a_rare_label_still_finds_as_many_of_its_rows(matrix, queries):
    """The lists are probed for all rows; a label holding a few of them is searched exactly
    (the probed lists could hold none of it), and a label holding most is probed deeper."""
    labels = ("Turn",) * 19 + ("Failed_Attempt",)  # one row in twenty
    copy, exact = _copy(matrix, labels), _copy(matrix, labels)
    copy.partition_by(*build(matrix))
    for q in queries[:20]:
        want = [r.uid for r in nearest(exact, q, ["Failed_Attempt"], 20)]
        assert [r.uid for r in nearest(copy, q, ["Failed_Attempt"], 20)] == want and len(want) == 20
    mostly = ("Turn", "Turn", "Experience")  # two rows in three
    copy, exact = _copy(matrix, mostly), _copy(matrix, mostly)
    copy.partition_by(*build(matrix))
    found = [
        sum(g.score >= nearest(exact, q, ["Turn"], 10)[-1].score - 1e-6 for g in nearest(copy, q, ["Turn"], 10)) / 10
        for q in queries
    ]
    assert np.mean(found) >= 0.9


def test_writes_during_a_background_build_are_kept_and_found(monkeypatch, matrix):
    """The cache builds lists in the background after a write; rows another write adds or
    replaces while it builds are still found once the lists are in place."""
    from graphmind.recall import vector_cache

    entered, release = threading.Event(), threading.Event()

    def gated_build(rows):
        entered.set()
        assert release.wait(30)
        return build(rows)

    monkeypatch.setattr(vector_cache, "build", gated_build)
    cache = vector_cache.VectorCache(None, 48, 1 << 30, partition_min=1000)  # type: ignore[arg-type]
    copy = _copy(matrix[:3000])
    cache._copies["m"] = copy  # as a load would leave it
    first = VectorWrite([f"m:{i}" for i in range(3000, 3400)], ["Turn"] * 400, matrix[3000:3400], "s1", "s2")
    cache.apply("m", first, "model")
    assert entered.wait(30) and cache.partition_of("m") is None  # building, on 3,400 rows
    far = _blobs(2, 1, 0.0, seed=99)
    second = VectorWrite(["m:0", "m:new"], ["Turn", "Turn"], np.stack([far[0], -far[0]]), "s2", "s3")
    cache.apply("m", second, "model")
    release.set()
    deadline = time.monotonic() + 30
    while cache.partition_of("m") is None:
        assert time.monotonic() < deadline, "the lists were never put in place"
        time.sleep(0.01)
    assert cache.partition_of("m").sorted_rows == 3400 and copy.size == 3401
    assert cache.search(copy, far[0], None, 1)[0].uid == "m:0"
    assert cache.search(copy, -far[0], None, 1)[0].uid == "m:new"
    cache.close()
