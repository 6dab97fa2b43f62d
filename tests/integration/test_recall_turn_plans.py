"""Turn recall's graph reads cost what they return, not the size of the mind (issue 26, item 5):
every read starts from an index seek (uid, Session(mind, started_at), full-text) or a walk from
the seeds, and none sorts a mind's sessions or turns (the latest session comes by index order)."""

from __future__ import annotations

from graphmind.app import connection
from graphmind.store import Catalog, GraphStore, connect
from graphmind.store.catalog import parse_query

TURN_READS = ("recall/find_turn_graph",)
GROWS_WITH_THE_MIND = {
    "AllNodesScan",
    "NodeByLabelScan",
    "DirectedAllRelationshipsScan",
    "UndirectedAllRelationshipsScan",
    "Sort",
    "Top",
    "PartialSort",
    "PartialTop",
}


def scaling_operators(operators: list[str]) -> list[str]:
    return [op for op in operators if op in GROWS_WITH_THE_MIND]


def test_turn_recall_reads_seek_and_never_sort(store):
    for name in TURN_READS:
        operators = store.explain(name)
        assert any("IndexSeek" in op for op in operators), (name, operators)
        assert not scaling_operators(operators), (name, operators)


def test_the_check_catches_a_sort_over_the_minds_sessions(store, settings):
    name = "recall/find_turn_graph"
    source = store.catalog.get(name).text
    sorted_in_memory = source.replace("ORDER BY l.mind DESC, l.started_at DESC", "ORDER BY l.started_at DESC")
    assert sorted_in_memory != source
    header = "// mode: read\n// params: " + ", ".join(sorted(store.catalog.get(name).params)) + "\n"
    corrupted = GraphStore(
        connect(*connection(settings)), Catalog({name: parse_query(name, header + sorted_in_memory)})
    )
    try:
        assert "Top" in scaling_operators(corrupted.explain(name))
    finally:
        corrupted.close()
