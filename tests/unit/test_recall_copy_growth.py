"""An in-memory copy of a mind's vectors grows by an eighth within its budget, so the writes
after a load do not push a large copy out of the cache (vectors.py, vector_cache.py)."""

from __future__ import annotations

import numpy as np

from graphmind.recall import vector_cache
from graphmind.recall.vectors import GROWTH_MIN_ROWS, VectorWrite, empty_vectors

DIMS = 8
ROW_BYTES = DIMS * 4 + 2


def _full_copy(rows: int, stamp: str = "s0"):
    copy = empty_vectors(stamp, "model", DIMS, capacity=rows)
    for i, vector in enumerate(np.random.default_rng(1).normal(size=(rows, DIMS))):
        copy.add(f"m:{i}", "Experience", vector)
    return copy


def _write(start: int, count: int, previous: str, stamp: str) -> VectorWrite:
    vectors = np.random.default_rng(start).normal(size=(count, DIMS)).astype(np.float32)
    return VectorWrite(
        [f"m:{i}" for i in range(start, start + count)], ["Experience"] * count, vectors, previous, stamp
    )


def test_a_full_copy_grows_by_an_eighth_not_twice_its_size():
    copy = _full_copy(16_384)
    assert len(copy.matrix) == 16_384
    copy.apply(_write(16_384, 1, "s0", "s1"))
    assert len(copy.matrix) == 16_384 + 2_048 and copy.size == 16_385
    small = _full_copy(10)
    small.apply(_write(10, 1, "s0", "s1"))
    assert len(small.matrix) == 10 + GROWTH_MIN_ROWS
    capped = _full_copy(16_384)
    capped.apply(_write(16_384, 1, "s0", "s1"), max_rows=16_500)
    assert len(capped.matrix) == 16_500  # the budget's room, not the eighth
    capped.apply(_write(16_385, 200, "s1", "s2"), max_rows=16_500)  # past the room: grows as usual, once
    assert len(capped.matrix) == 16_500 + 2_062 and capped.size == 16_585


def test_a_copy_loaded_with_room_survives_the_writes_that_follow_it():
    rows = 16_384
    budget = int(rows * 1.2 * ROW_BYTES)  # room for the eighth a load asks for, and a little more
    cache = vector_cache.VectorCache(None, DIMS, budget)  # type: ignore[arg-type]
    cache._copies["m"] = copy = _full_copy(rows)  # as a load would leave it
    cache.apply("m", _write(rows, 100, "s0", "s1"), "model")
    assert cache.lookup("m", "s1", "model") is copy and copy.size == rows + 100
    assert cache.held_bytes() <= budget


def test_a_copy_that_outgrows_its_budget_alone_is_dropped_and_not_reloaded_at_that_size():
    rows = 16_384
    cache = vector_cache.VectorCache(None, DIMS, rows * ROW_BYTES + 10 * ROW_BYTES)  # type: ignore[arg-type]
    cache._copies["m"] = _full_copy(rows)
    cache.apply("m", _write(rows, 100, "s0", "s1"), "model")  # 100 rows, room for 10
    assert cache.held_bytes() == 0
    assert cache.lookup("m", "s1", "model") is None and cache.lookup("m", "s1", "model") is None
    assert "m" not in cache._loading  # known too big at this stamp: no load in the background
