"""The caching embedder: the same vectors as its inner embedder, whatever the batch and cache sizes."""

from __future__ import annotations

import numpy as np

from graphmind.embed import CachingEmbedder, HashingEmbedder


class Counting(HashingEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def embed(self, texts):
        self.seen += list(texts)
        return super().embed(texts)


def test_a_batch_larger_than_the_cache_is_answered_whole():
    inner = HashingEmbedder()
    texts = [f"text number {i}" for i in range(7)]
    np.testing.assert_array_equal(CachingEmbedder(inner, size=3).embed(texts), inner.embed(texts))


def test_remembered_texts_in_a_batch_that_overflows_the_cache_are_still_answered():
    inner, cache = HashingEmbedder(), CachingEmbedder(HashingEmbedder(), size=3)
    cache.embed(["a b", "c d"])
    texts = ["a b", "e f", "g h", "c d", "e f"]
    np.testing.assert_array_equal(cache.embed(texts), inner.embed(texts))


def counted(size: int) -> tuple[Counting, CachingEmbedder]:
    inner = Counting()
    return inner, CachingEmbedder(inner, size=size)


def test_each_text_is_embedded_once_while_it_is_remembered():
    inner, cache = counted(4)
    cache.embed(["a b", "c d", "a b"])
    cache.embed(["c d", "e f"])
    assert inner.seen == ["a b", "c d", "e f"]
    assert cache.embed([]).shape == (0, inner.dimensions)


def test_the_cache_keeps_the_last_texts_first_in_first_out_and_nothing_at_size_zero():
    inner, cache = counted(2)
    cache.embed(["a b", "c d", "e f"])
    cache.embed(["c d", "e f"])
    assert inner.seen == ["a b", "c d", "e f"]
    cache.embed(["g h"])  # pushes out "c d", the first in
    cache.embed(["e f", "c d"])
    assert inner.seen[-2:] == ["g h", "c d"]
    none, empty = counted(0)
    empty.embed(["a b"])
    empty.embed(["a b"])
    assert none.seen == ["a b", "a b"]
