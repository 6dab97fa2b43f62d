import pytest

from graphmind.app import init_database
from graphmind.errors import CatalogError, StoreUnavailableError
from graphmind.store import Catalog, GraphStore, connect


def test_every_catalog_query_plans_on_the_real_server(store):
    for name in store.catalog.names():
        operators = store.explain(name)
        assert operators and operators[0] == "ProduceResults", name


RUMINATION = (
    "ruminate/get_coverage",
    "ruminate/find_partnerships",
    "ruminate/find_conversations",
    "ruminate/find_technical_context",
    "ruminate/find_emotional_states",
    "ruminate/find_strategy_patterns",
    "ruminate/find_related_code",
    "ruminate/find_failed_attempts",
    "ruminate/find_active_constraints",
    "ruminate/find_linked",
    "ruminate/find_edges",
    "ruminate/upsert_run",
)


WANDER_STEP = (
    "wander/find_band_candidates",
    "wander/find_graph_candidates",
    "wander/find_locus_memories",
    "wander/list_resonances",
    "wander/mark_session_step",
    "wander/link_step",
)


def test_mind_scoped_queries_seek_an_index_instead_of_scanning(store):
    for name in (
        "export/list_nodes",
        "stats/count_labels",
        "import/upsert_memories",
        "import/link_edges",
        "recall/get_vector_state",
        "admin/get_mind_presence",
        *RUMINATION,
        *WANDER_STEP,
    ):
        operators = store.explain(name)
        assert not any(op in ("AllNodesScan", "DirectedAllRelationshipsScan") for op in operators), (name, operators)
        assert any("IndexSeek" in op for op in operators), (name, operators)


def test_init_is_idempotent_and_records_the_version(store, settings):
    first = init_database(store, settings)
    second = init_database(store, settings)
    assert first == second
    assert first.version == 10
    assert store.read("admin/get_schema_version")[0]["version"] == 10
    indexes = {row["name"]: row for row in store.autocommit("admin/list_indexes")}
    assert indexes["memory_embedding"]["type"] == "VECTOR"
    assert indexes["memory_search"]["type"] == "FULLTEXT"
    assert indexes["memory_uid"]["state"] == "ONLINE" and indexes["locus_role"]["type"] == "RANGE"
    assert all(row["state"] == "ONLINE" for row in indexes.values())


def test_calls_are_checked_against_the_catalog(store, mind):
    with pytest.raises(CatalogError, match="missing"):
        store.read("stats/count_labels")
    with pytest.raises(CatalogError, match="is a read query"):
        store.write("stats/count_labels", mind=mind.name)


def test_transactions_roll_back_on_error(store, mind):
    rows = [{"uid": f"{mind.name}:a", "id": "a", "label": "Thread", "props": {"title": "t"}}]
    with pytest.raises(RuntimeError):
        with store.transaction() as tx:
            tx.run("import/upsert_memories", mind=mind.name, rows=rows)
            raise RuntimeError("boom")
    assert mind.stats().nodes == 0
    with store.transaction() as tx:
        tx.run("import/upsert_memories", mind=mind.name, rows=rows)
    assert mind.stats().labels == {"Thread": 1}


def test_an_unreachable_server_is_one_clear_error():
    graph = GraphStore(connect("bolt://127.0.0.1:1", "neo4j", "x"), Catalog.load())
    with pytest.raises(StoreUnavailableError, match="not reachable"):
        graph.read("admin/get_schema_version")
    graph.close()


def test_wrong_credentials_are_one_clear_error(settings):
    graph = GraphStore(connect(settings.neo4j_uri, "neo4j", "wrong-password"), Catalog.load())
    with pytest.raises(StoreUnavailableError, match="refused the credentials"):
        graph.read("admin/get_schema_version")
    graph.close()


def test_full_text_index_finds_imported_text_after_refresh(store, mind):
    from tests.integration.helpers import DEMO

    mind.import_jsonl(DEMO)
    store.autocommit("admin/await_text_index")
    indexes = {row["name"]: row for row in store.autocommit("admin/list_indexes")}
    assert indexes["memory_search"]["type"] == "FULLTEXT" and "memory_text" not in indexes
    query = f'mind:"{mind.name}" AND (redelivery OR redelivered)'
    row = store.read("recall/find_by_text", mind=mind.name, query=query, labels=None, fetch=100, limit=10)[0]
    assert row["fetched"] == row["own"]  # the mind's name in the query keeps other minds out
    found = {node.id: node.LABEL for node in (mind.get(h["uid"].split(":", 1)[1]) for h in row["kept"])}
    assert set(found) == {"conv-race-2", "tc-queue", "thread-duplicates", "fail-lock", "exp-2"}
    assert found["tc-queue"] == "Technical_Context" and found["exp-2"] == "Experience"


def test_a_database_whose_schema_is_older_says_to_run_init(store, settings, mind, neo4j_env):
    """A database lacking an index graphmind uses (a schema older than the code; here the
    full-text index dropped by hand) failed with Neo4j's "There is no such fulltext schema
    index": the error now says what to do. The index comes back with init."""
    import neo4j

    from graphmind.errors import StoreError

    mind.capture({"id": "e1", "description": "Tom lost a Chiffchaff", "outcome": "failure"}, wait=True)
    auth = (neo4j_env["NEO4J_USER"], neo4j_env["NEO4J_PASSWORD"])
    with neo4j.GraphDatabase.driver(neo4j_env["NEO4J_URI"], auth=auth) as driver:
        driver.execute_query("DROP INDEX memory_search IF EXISTS", database_=settings.neo4j_database)
    try:
        with pytest.raises(StoreError, match="run 'graphmind init' to bring it up to date"):
            mind.recall("Chiffchaff", k=3)
    finally:
        init_database(store, settings)
    assert [h.id for h in mind.recall("Chiffchaff", k=3).hits] == ["e1"]
