"""Recall's in-memory copy of a mind's vectors, on the real Neo4j: same answers as the graph,
never used once the graph moved on, kept current by this process's own embedding writes."""

from __future__ import annotations

import dataclasses
import time

import pytest

from graphmind.embed import HashingEmbedder
from graphmind.mind import Mind

from .helpers import DEMO, node, write_jsonl

pytestmark = pytest.mark.integration

QUERY = "the race condition is back after the queue change"


def _mind(name, store, settings, **changes) -> Mind:
    return Mind(name, store, dataclasses.replace(settings, **changes), embedder=HashingEmbedder())


def _zebra(node_id: str, description: str) -> dict:
    return node(
        "Constraint", node_id, constraint_type="latency", severity="low", description=description, impact="none"
    )


def _ranked(result):
    return [(hit.id, round(hit.similarity, 5)) for hit in result.hits if hit.similarity is not None]


def test_the_copy_answers_as_the_graph_does(store, settings, mind):
    with (
        _mind(mind.name, store, settings, recall_cache_mb=0) as graph_only,
        _mind(mind.name, store, settings) as cached,
    ):
        graph_only.import_jsonl(DEMO)
        graph_only.embed()
        assert graph_only.load_vectors() == 0  # the cache is off
        from_graph = graph_only.recall(QUERY, k=8)
        assert cached.load_vectors() == 28
        from_memory = cached.recall(QUERY, k=8)
        assert (from_graph.vector_search, from_memory.vector_search) == ("exact", "memory")
        # Full-text scores use the whole test database's term statistics, so a text-only hit may
        # enter the top 8 depending on what other tests left; the vector side must agree exactly.
        assert _ranked(from_memory) == _ranked(from_graph) and len(_ranked(from_memory)) >= 6
        only = cached.recall(QUERY, k=8, labels=["Constraint"])
        assert only.vector_search == "memory" and {hit.label for hit in only.hits} == {"Constraint"}


def test_a_write_by_another_process_retires_the_copy_at_once(store, settings, mind, tmp_path):
    with _mind(mind.name, store, settings) as reader, _mind(mind.name, store, settings) as writer:
        reader.import_jsonl(DEMO)
        reader.embed()
        assert reader.load_vectors() == 28
        writer.import_jsonl(
            write_jsonl(tmp_path / "new.jsonl", [_zebra("cons-zebra", "Zebra quokka narwhal telemetry")])
        )
        writer.embed(full=False)  # another Mind: the reader's copy does not hear of this write
        result = reader.recall("zebra quokka narwhal telemetry", k=3)
        assert result.embedded == 0 and result.vector_search != "memory"
        assert result.hits[0].id == "cons-zebra" and result.hits[0].vector_rank == 1
        assert reader.load_vectors() == 29
        assert reader.recall("zebra quokka narwhal telemetry", k=3).vector_search == "memory"


def test_the_copy_follows_this_minds_own_embedding_writes(store, settings, mind, tmp_path):
    with _mind(mind.name, store, settings) as cached:
        cached.import_jsonl(DEMO)
        assert cached.embed().embedded == 28
        assert cached.load_vectors() == 28
        cached.import_jsonl(
            write_jsonl(tmp_path / "new.jsonl", [_zebra("cons-zebra", "Zebra quokka narwhal telemetry")])
        )
        result = cached.recall("zebra quokka narwhal telemetry", k=3)  # embeds it first
        assert result.embedded == 1 and result.vector_search == "memory"
        assert result.hits[0].id == "cons-zebra" and result.hits[0].vector_rank == 1


def test_a_deleted_mind_leaves_no_stamp_and_its_copy_is_never_used(store, settings, mind):
    with _mind(mind.name, store, settings) as cached:
        cached.import_jsonl(DEMO)
        cached.embed()
        assert cached.load_vectors() == 28
        cached.delete()
        assert store.read("recall/get_vector_state", mind=mind.name)[0]["stamp"] is None
        assert cached.recall(QUERY, k=5).hits == []


def test_a_mind_larger_than_the_budget_is_searched_in_the_graph(store, settings, mind):
    with _mind(mind.name, store, settings, recall_cache_mb=0) as loader:
        loader.import_jsonl(DEMO)
        loader.embed()
    tiny = dataclasses.replace(settings, recall_cache_mb=1)
    with Mind(mind.name, store, tiny, embedder=HashingEmbedder()) as cached:
        cached.recaller._cache._budget = 28 * 384 * 4 - 1  # one row short
        assert cached.load_vectors() == 0
        assert cached.recall(QUERY, k=5).vector_search == "exact"


def test_a_large_copy_is_searched_through_lists_built_again_as_it_grows(store, settings, mind, tmp_path):
    """GRAPHMIND_RECALL_PARTITION_MIN (here 20 rows) partitions the copy at load; writes that
    leave a tenth of it outside the lists have them built again, in the background."""
    with _mind(mind.name, store, settings, recall_partition_min=20) as cached:
        cached.import_jsonl(DEMO)
        cached.embed()
        assert cached.load_vectors() == 28
        lists = cached.recaller.partition_of(mind.name)
        assert lists is not None and lists.sorted_rows == 28
        ranked = _ranked(cached.recall(QUERY, k=8))
        with _mind(mind.name, store, settings, recall_cache_mb=0) as graph_only:
            exact = _ranked(graph_only.recall(QUERY, k=8))
        assert ranked[:3] == exact[:3]
        zebras = [_zebra(f"cons-zebra-{i}", f"Zebra quokka narwhal telemetry {i}") for i in range(4)]
        cached.import_jsonl(write_jsonl(tmp_path / "new.jsonl", zebras))
        result = cached.recall("zebra quokka narwhal telemetry 3", k=3)  # embeds them: the tail
        assert result.embedded == 4 and result.vector_search == "memory"
        assert result.hits[0].id == "cons-zebra-3"
        deadline = time.monotonic() + 30
        while cached.recaller.partition_of(mind.name).sorted_rows != 32:
            assert time.monotonic() < deadline, "the lists were not built again"
            time.sleep(0.05)
        assert cached.recall("zebra quokka narwhal telemetry 3", k=3).hits[0].id == "cons-zebra-3"
