"""Deleting a mind streams its nodes into batches (issue 25, a million-memory mind): what feeds
the batches is an index seek, with no operator between that holds every node or relationship
of the mind in the outer transaction's memory (an Eager or Distinct inside a batch holds only
that batch)."""

from __future__ import annotations

import pytest

from graphmind.app import connection
from graphmind.store import Catalog, GraphStore, connect
from graphmind.store.catalog import parse_query

DELETES = (
    "admin/delete_mind",
    "admin/delete_mind_runs",
    "admin/delete_mind_relationships",
    "admin/delete_mind_run_links",
)


def feeds_the_batches(operators: list[str]) -> str:
    """The operator right under TransactionForeach on its outer side (plans list depth first)."""
    return operators[operators.index("TransactionForeach") + 1]


def test_each_delete_query_feeds_its_batches_from_an_index_seek(store):
    for name in DELETES:
        assert feeds_the_batches(store.explain(name)) == "NodeIndexSeek", (name, store.explain(name))


@pytest.mark.parametrize(
    ("name", "good", "bad"),
    [
        ("admin/delete_mind", "MATCH (n:Memory)", "MATCH (n:Memory|Run)"),
        (
            "admin/delete_mind_relationships",
            "MATCH (n:Memory)\nWHERE n.mind = $mind\nCALL (n) {\n  MATCH (n)-[r]->()\n  DELETE r\n}",
            "MATCH (n:Memory)-[r]->()\nWHERE n.mind = $mind\nCALL (r) {\n  DELETE r\n}",
        ),
    ],
)
def test_the_check_catches_the_plans_that_held_the_whole_mind(store, settings, name, good, bad):
    text = store.catalog.get(name).text
    corrupted_text = text.replace(good, bad)
    assert corrupted_text != text
    header = "// mode: autocommit\n// params: mind\n"
    corrupted = GraphStore(connect(*connection(settings)), Catalog({name: parse_query(name, header + corrupted_text)}))
    try:
        assert feeds_the_batches(corrupted.explain(name)) in {"Distinct", "Eager", "OrderedDistinct"}
    finally:
        corrupted.close()
