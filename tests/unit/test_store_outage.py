"""How long an unreachable Neo4j takes to fail a command (GRAPHMIND_NEO4J_FAIL_AFTER), and the
CLI's stderr kept free of the driver's log lines. No database: the server here is a port
nobody listens on (the crash of a live server is tests/integration/test_neo4j_crash.py)."""

from __future__ import annotations

import logging
import socket
from types import SimpleNamespace

import pytest

from graphmind.app import open_store
from graphmind.cli import logs
from graphmind.config import Settings, log_level
from graphmind.errors import ConfigError, StoreUnavailableError
from graphmind.store import Catalog, GraphStore, connect, graph_store


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_the_bound_defaults_to_20_s_and_reaches_the_driver(tmp_path):
    assert Settings.from_env({"GRAPHMIND_HOME": str(tmp_path)}).neo4j_fail_after_s == 20 <= 30
    settings = Settings.from_env(
        {
            "GRAPHMIND_HOME": str(tmp_path),
            "GRAPHMIND_NEO4J_FAIL_AFTER": "12",
            "NEO4J_URI": f"bolt://127.0.0.1:{closed_port()}",
        }
    )
    store = open_store(settings)
    driver = store._driver
    # the driver's back-off can overshoot its retry time by about as much again: it gets half
    assert driver._default_workspace_config.max_transaction_retry_time == 6
    assert driver._default_workspace_config.connection_acquisition_timeout == 12
    assert driver._pool.pool_config.connection_timeout == 3
    assert store._outage.fail_after_s == 12
    store.close()
    with pytest.raises(ConfigError, match="GRAPHMIND_NEO4J_FAIL_AFTER"):
        Settings.from_env({"GRAPHMIND_HOME": str(tmp_path), "GRAPHMIND_NEO4J_FAIL_AFTER": "0"})


class Counting:
    """The real driver, with its sessions and connectivity checks counted."""

    def __init__(self, driver):
        self.driver, self.sessions, self.checks = driver, [], 0

    def session(self, **config):
        self.sessions.append(config)
        return self.driver.session(**config)

    def verify_connectivity(self):
        self.checks += 1
        return self.driver.verify_connectivity()

    def close(self):
        self.driver.close()


@pytest.fixture
def clock(monkeypatch):
    now = SimpleNamespace(t=1000.0)
    monkeypatch.setattr(graph_store, "time", SimpleNamespace(monotonic=lambda: now.t))
    return now


def test_after_one_call_finds_the_server_gone_the_next_ones_fail_at_once(clock):
    driver = Counting(connect(f"bolt://127.0.0.1:{closed_port()}", "neo4j", "x", fail_after_s=10))
    store = GraphStore(driver, Catalog.load(), fail_after_s=10)  # type: ignore[arg-type]
    with pytest.raises(StoreUnavailableError) as first:
        store.read("admin/get_schema_version")
    assert str(first.value) == (
        "Neo4j is not reachable (Connection refused); start it with 'graphmind neo4j start' or set NEO4J_URI"
    )
    assert first.value.__cause__ is not None and driver.checks == 1
    clock.t += 9.9  # within the bound: not a single attempt more
    for call in (
        lambda: store.read("admin/get_schema_version"),
        lambda: store.write("dream/delete_lease", mind="m", holder="h"),
        store.verify,
    ):
        with pytest.raises(StoreUnavailableError) as later:
            call()
        assert str(later.value) == str(first.value) and later.value.__cause__ is None
    assert driver.checks == 1 and driver.sessions == []
    clock.t += 10  # the bound has passed since the last try: one call tries once, without retries
    with pytest.raises(StoreUnavailableError) as again:
        store.read("admin/get_schema_version")
    assert again.value.__cause__ is not None and driver.checks == 2
    with pytest.raises(StoreUnavailableError) as after:
        store.read("admin/get_schema_version")
    assert after.value.__cause__ is None and driver.checks == 2
    store.close()


def test_during_an_outage_a_session_makes_a_single_attempt(clock):
    driver = Counting(connect(f"bolt://127.0.0.1:{closed_port()}", "neo4j", "x"))
    store = GraphStore(driver, Catalog.load(), fail_after_s=5)  # type: ignore[arg-type]
    store._verified = True  # as after a first call that reached the server
    assert store._session().close() is None and "max_transaction_retry_time" not in driver.sessions[-1]
    with pytest.raises(StoreUnavailableError):
        store.read("admin/get_schema_version")
    clock.t += 5
    with pytest.raises(StoreUnavailableError):
        store.read("admin/get_schema_version")
    assert driver.sessions[-1]["max_transaction_retry_time"] == 0
    store.close()


@pytest.fixture
def logging_restored():
    root, driver = logging.getLogger(), logging.getLogger("neo4j")
    saved = (root.level, list(root.handlers), driver.level)
    yield
    root.setLevel(saved[0])
    root.handlers[:] = saved[1]
    driver.setLevel(saved[2])


def log_lines(capsys) -> list[str]:
    capsys.readouterr()
    logging.getLogger("neo4j.session").warning("Transaction failed and will be retried in 1.0s (gone)")
    logging.getLogger("neo4j.io").error("[#0000]  _: <CONNECTION> error: Failed to read from defunct connection")
    logging.getLogger("graphmind.store").warning("a warning of graphmind")
    logging.getLogger("graphmind.store").info("an info line of graphmind")
    return capsys.readouterr().err.splitlines()


def test_the_cli_shows_no_driver_log_lines_unless_asked(capsys, logging_restored):
    logs.configure(log_level({}))
    logs.configure(log_level({}))  # configuring twice (main runs per command) adds no second handler
    assert log_lines(capsys) == ["graphmind.store: WARNING: a warning of graphmind"]
    logs.configure(log_level({"GRAPHMIND_LOG_LEVEL": "info"}))
    assert log_lines(capsys) == [
        "neo4j.session: WARNING: Transaction failed and will be retried in 1.0s (gone)",
        "neo4j.io: ERROR: [#0000]  _: <CONNECTION> error: Failed to read from defunct connection",
        "graphmind.store: WARNING: a warning of graphmind",
        "graphmind.store: INFO: an info line of graphmind",
    ]
    with pytest.raises(ConfigError, match="GRAPHMIND_LOG_LEVEL must be one of debug, info, warning, error"):
        log_level({"GRAPHMIND_LOG_LEVEL": "loud"})
