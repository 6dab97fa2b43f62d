"""A real Neo4j for the integration tests, and a fresh mind for each test.

Where the database comes from, in order:
1. ``GRAPHMIND_TEST_NEO4J_URI`` or ``NEO4J_URI`` (with ``*_USER`` / ``*_PASSWORD``);
2. testcontainers' Neo4j module, when a Docker engine answers;
3. the local launcher (``graphmind neo4j start``) under ``GRAPHMIND_TEST_HOME``
   (default ``.graphmind-test/`` in the checkout) on ports 17687/17474, stopped at the end
   if this session started it.

The suite refuses to run against a database holding nodes outside ``test-*`` minds.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmind.app import init_database, open_store
from graphmind.config import Settings
from graphmind.errors import GraphmindError
from graphmind.mind import Mind
from graphmind.store import GraphStore

REPO = Path(__file__).resolve().parents[1]
TEST_MIND_PREFIX = "test-"


def _env_target() -> dict[str, str] | None:
    uri = os.environ.get("GRAPHMIND_TEST_NEO4J_URI") or os.environ.get("NEO4J_URI")
    if not uri:
        return None
    user = os.environ.get("GRAPHMIND_TEST_NEO4J_USER") or os.environ.get("NEO4J_USER", "neo4j")
    password = os.environ.get("GRAPHMIND_TEST_NEO4J_PASSWORD") or os.environ.get("NEO4J_PASSWORD", "")
    return {"NEO4J_URI": uri, "NEO4J_USER": user, "NEO4J_PASSWORD": password}


def _docker_answers() -> bool:
    try:
        import docker

        docker.from_env(timeout=3).ping()
        return True
    except Exception:
        return False


@pytest.fixture(scope="session")
def neo4j_env() -> Iterator[dict[str, str]]:
    """The NEO4J_* variables that point at the test database."""
    target = _env_target()
    if target:
        yield target
        return
    if _docker_answers():
        from testcontainers.neo4j import Neo4jContainer

        with Neo4jContainer("neo4j:5.26-community") as container:
            yield {
                "NEO4J_URI": container.get_connection_url(),
                "NEO4J_USER": "neo4j",
                "NEO4J_PASSWORD": container.password,
            }
        return
    yield from _local_neo4j()


def _local_neo4j() -> Iterator[dict[str, str]]:
    from graphmind.launcher import LocalNeo4j

    home = Path(os.environ.get("GRAPHMIND_TEST_HOME", REPO / ".graphmind-test"))
    settings = Settings.from_env(
        {
            **os.environ,
            "GRAPHMIND_HOME": str(home),
            "GRAPHMIND_BOLT_PORT": os.environ.get("GRAPHMIND_TEST_BOLT_PORT", "17687"),
            "GRAPHMIND_HTTP_PORT": os.environ.get("GRAPHMIND_TEST_HTTP_PORT", "17474"),
            "GRAPHMIND_NEO4J_HEAP": os.environ.get("GRAPHMIND_NEO4J_HEAP", "1g"),
        }
    )
    local = LocalNeo4j(settings)
    started_here = not local.status().running
    try:
        status = local.start()
    except GraphmindError as exc:
        pytest.exit(f"cannot start the test Neo4j: {exc}", returncode=1)
    try:
        yield {"NEO4J_URI": status.uri, "NEO4J_USER": "neo4j", "NEO4J_PASSWORD": local.password() or ""}
    finally:
        if started_here and not os.environ.get("GRAPHMIND_TEST_KEEP_NEO4J"):
            local.stop()


@pytest.fixture(scope="session")
def settings(neo4j_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Settings:
    home = tmp_path_factory.mktemp("graphmind-home")
    return Settings.from_env({**neo4j_env, "GRAPHMIND_HOME": str(home)})


@pytest.fixture(scope="session")
def store(settings: Settings) -> Iterator[GraphStore]:
    """The store on the test database, schema applied, checked to hold only test minds."""
    graph = open_store(settings)
    foreign = [r for r in graph.read("admin/count_minds") if not str(r["mind"]).startswith(TEST_MIND_PREFIX)]
    if foreign:
        graph.close()
        pytest.exit(
            f"refusing to test against {settings.neo4j_uri}: it holds data outside "
            f"test minds ({foreign[:3]}); point the tests at an empty database",
            returncode=2,
        )
    init_database(graph, settings)
    yield graph
    graph.close()


@pytest.fixture
def cli_env(neo4j_env: dict[str, str], settings: Settings, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The environment under which ``graphmind`` (in-process or as a subprocess) hits the test DB."""
    for name, value in {**neo4j_env, "GRAPHMIND_HOME": str(settings.home)}.items():
        monkeypatch.setenv(name, value)
    return {**os.environ}


def new_mind_name() -> str:
    return f"{TEST_MIND_PREFIX}{uuid.uuid4().hex[:12]}"


@pytest.fixture
def mind(store: GraphStore, settings: Settings) -> Iterator[Mind]:
    """A fresh, empty mind of its own, deleted after the test."""
    m = Mind(new_mind_name(), store, settings)
    yield m
    try:
        m.delete()
    finally:
        m.close()


@pytest.fixture
def cli_mind(store: GraphStore, settings: Settings) -> Iterator[str]:
    """The name of a fresh mind for CLI tests, deleted after the test."""
    with Mind(new_mind_name(), store, settings) as m:
        yield m.name
        m.delete()


@pytest.fixture
def other_mind(store: GraphStore, settings: Settings) -> Iterator[Mind]:
    m = Mind(new_mind_name(), store, settings)
    yield m
    try:
        m.delete()
    finally:
        m.close()
