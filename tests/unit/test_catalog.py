import pytest

from graphmind.errors import CatalogError
from graphmind.store.catalog import Catalog, parse_query

NAME_RULE = ("get_", "find_", "list_", "count_", "upsert_", "link_", "mark_", "delete_", "await_")


def test_every_catalog_file_loads_with_a_checked_header():
    catalog = Catalog.load()
    assert len(catalog) >= 10
    for name in catalog.names():
        area, verb = name.split("/")
        assert verb.startswith(NAME_RULE), name


def test_header_must_match_the_parameters_used():
    with pytest.raises(CatalogError, match="declares"):
        parse_query("x/get_y", "// mode: read\n// params: mind\nMATCH (n {mind: $mind, id: $id}) RETURN n")
    with pytest.raises(CatalogError, match="mode"):
        parse_query("x/get_y", "// params: mind\nMATCH (n {mind: $mind}) RETURN n")
    with pytest.raises(CatalogError, match="one statement"):
        parse_query("x/get_y", "// mode: read\n// params:\nRETURN 1; RETURN 2")


def test_dynamic_labels_are_not_mistaken_for_parameters():
    query = parse_query("x/upsert_y", "// mode: write\n// params: rows\nUNWIND $rows AS row SET n:$(row.label)")
    assert query.params == {"rows"}


def test_a_write_of_counters_only_says_so_in_its_header():
    counters = parse_query("x/mark_y", "// mode: write\n// params:\n// changes: counters\nMATCH (n) SET n.c = 1")
    assert counters.counters_only and not parse_query("x/mark_y", "// mode: write\n// params:\nRETURN 1").counters_only
    with pytest.raises(CatalogError, match="changes"):
        parse_query("x/get_y", "// mode: read\n// params:\n// changes: counters\nRETURN 1")
    with pytest.raises(CatalogError, match="changes"):
        parse_query("x/mark_y", "// mode: write\n// params:\n// changes: memories\nRETURN 1")
    assert Catalog.load().get("recall/mark_hit_counts").counters_only


def test_calls_must_pass_exactly_the_declared_parameters():
    query = Catalog.load().get("stats/count_labels")
    query.check_params({"mind"})
    with pytest.raises(CatalogError, match="missing"):
        query.check_params(set())
    with pytest.raises(CatalogError, match="unexpected"):
        query.check_params({"mind", "label"})


def test_unknown_query_names_fail_clearly():
    with pytest.raises(CatalogError, match="no query named"):
        Catalog.load().get("nope/get_nothing")
