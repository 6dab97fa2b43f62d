"""The routing path (issue 25, item 6): graphmind through a ``neo4j://`` URI, as a cluster or
Aura (``neo4j+s://``) is reached. Against the local single server, the routing driver fetches
a routing table (the server as writer, reader and router) and sends reads as READ
transactions; an import, a recall and an export through it give the graph a direct ``bolt://``
connection sees. See docs/neo4j-cluster.md."""

from __future__ import annotations

import dataclasses

import neo4j
import pytest

from graphmind.app import open_store
from graphmind.mind import Mind
from tests.conftest import new_mind_name
from tests.integration.helpers import DEMO, graph_snapshot

pytestmark = pytest.mark.integration


def routed(uri: str) -> str:
    """The routing form of a direct ``bolt://`` URI (``bolt+s://`` becomes ``neo4j+s://``)."""
    scheme, sep, rest = uri.partition("://")
    if not sep or not scheme.startswith("bolt"):
        raise ValueError(f"not a direct bolt URI: {uri!r}")
    return "neo4j" + scheme.removeprefix("bolt") + "://" + rest


def test_routed_maps_each_direct_scheme() -> None:
    assert routed("bolt://127.0.0.1:7687") == "neo4j://127.0.0.1:7687"
    assert routed("bolt+s://x.example:7687") == "neo4j+s://x.example:7687"
    with pytest.raises(ValueError):
        routed("neo4j://already-routed:7687")


@pytest.fixture
def routed_store(neo4j_env, settings):
    if not neo4j_env["NEO4J_URI"].startswith("bolt"):
        pytest.skip("the test database is not reached by a direct bolt:// URI")
    routed_settings = dataclasses.replace(
        settings,
        neo4j_uri=routed(neo4j_env["NEO4J_URI"]),
        neo4j_user=neo4j_env["NEO4J_USER"],
        neo4j_password=neo4j_env["NEO4J_PASSWORD"],
    )
    graph = open_store(routed_settings)
    yield graph, routed_settings
    graph.close()


def test_a_mind_imports_recalls_and_exports_through_a_routing_uri(routed_store, store, settings) -> None:
    graph, routed_settings = routed_store
    assert isinstance(graph._driver, neo4j.Neo4jDriver), type(graph._driver)  # the routing driver, not BoltDriver
    name = new_mind_name()
    through_routing = Mind(name, graph, routed_settings)
    direct = Mind(name, store, settings)
    try:
        report = through_routing.import_jsonl(DEMO)
        assert report.nodes > 0 and report.edges > 0
        hits = through_routing.recall("race condition in the settlement worker", k=3, labels=["Conversation_Memory"])
        assert hits.hits and hits.hits[0].label == "Conversation_Memory"
        assert graph_snapshot(through_routing) == graph_snapshot(direct) != []
        assert {r["mind"] for r in graph.read("admin/count_minds")} >= {name}
    finally:
        direct.delete()
        through_routing.close()
        direct.close()


def test_the_server_gives_the_routing_driver_readers_writers_and_routers(routed_store) -> None:
    graph, routed_settings = routed_store
    with graph._driver.session(database=routed_settings.neo4j_database, default_access_mode=neo4j.READ_ACCESS) as s:
        table = s.run("CALL dbms.routing.getRoutingTable({}, $db)", db=routed_settings.neo4j_database).single()
    roles = {server["role"] for server in table["servers"]}
    assert roles == {"READ", "WRITE", "ROUTE"}, table["servers"]
