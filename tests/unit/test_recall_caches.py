"""Recall's query-embedding cache (pure: no database)."""

from __future__ import annotations

import numpy as np
import pytest

from graphmind.embed import HashingEmbedder
from graphmind.recall.caches import QueryVectors


class Counting(HashingEmbedder):
    """The hashing embedder, counting the texts it embeds."""

    def __init__(self) -> None:
        super().__init__()
        self.embedded: list[str] = []

    def embed(self, texts):  # type: ignore[no-untyped-def]
        self.embedded.extend(texts)
        return super().embed(texts)


def test_a_repeated_query_is_embedded_once_and_the_least_recent_is_dropped() -> None:
    inner = Counting()
    queries = QueryVectors(inner, size=2)
    first = queries.embed("tide tables")
    assert np.array_equal(first, HashingEmbedder().embed(["tide tables"])[0])
    assert queries.embed("tide tables") is first and inner.embedded == ["tide tables"]
    queries.embed("neap tides")
    queries.embed("tide tables")  # now the most recent of the two
    queries.embed("hermit crabs")  # drops "neap tides"
    queries.embed("tide tables")
    queries.embed("neap tides")
    assert inner.embedded == ["tide tables", "neap tides", "hermit crabs", "neap tides"]
    with pytest.raises(ValueError):
        first[0] = 1.0  # shared between recalls: read-only
