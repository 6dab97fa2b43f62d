"""Deleting a mind streams its nodes into batches (issue 25, a million-memory mind): no plan
operator holds every node of the mind in the outer transaction's memory."""

from __future__ import annotations

from graphmind.app import connection
from graphmind.store import Catalog, GraphStore, connect
from graphmind.store.catalog import parse_query

HOLDS_EVERY_ROW = {"Eager", "Distinct", "OrderedDistinct"}


def test_each_delete_query_seeks_one_label_and_holds_nothing(store):
    for name in ("admin/delete_mind", "admin/delete_mind_runs", "admin/delete_mind_relationships"):
        operators = store.explain(name)
        assert operators.count("NodeIndexSeek") == 1, (name, operators)
        assert not HOLDS_EVERY_ROW & set(operators), (name, operators)


def test_the_check_catches_the_two_label_seek_that_ran_out_of_memory(store, settings):
    name = "admin/delete_mind"
    query = store.catalog.get(name)
    both = query.text.replace("MATCH (n:Memory)", "MATCH (n:Memory|Run)")
    assert both != query.text
    header = "// mode: autocommit\n// params: mind\n"
    corrupted = GraphStore(connect(*connection(settings)), Catalog({name: parse_query(name, header + both)}))
    try:
        assert HOLDS_EVERY_ROW & set(corrupted.explain(name))
    finally:
        corrupted.close()
