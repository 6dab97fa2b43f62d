"""The local Neo4j launcher: start, status, refusal of a taken port, graceful stop."""

import json
import os
import shutil
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from graphmind.config import Settings
from graphmind.errors import PortInUseError
from graphmind.launcher import LocalNeo4j
from graphmind.launcher.local import _make_private
from graphmind.store import Catalog, GraphStore, connect

needs_java = pytest.mark.skipif(not (shutil.which("java") and shutil.which("mvn")), reason="needs Java and Maven")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _settings(tmp_path, bolt: int, http: int) -> Settings:
    return Settings.from_env(
        {
            **os.environ,
            "GRAPHMIND_HOME": str(tmp_path / "home"),
            "GRAPHMIND_BOLT_PORT": str(bolt),
            "GRAPHMIND_HTTP_PORT": str(http),
        }
    )


def test_a_taken_port_is_refused_before_anything_starts(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        local = LocalNeo4j(_settings(tmp_path, port, _free_port()))
        with pytest.raises(PortInUseError, match=f"port {port}"):
            local.start()
    assert not (tmp_path / "home" / "neo4j" / "run" / "neo4j.pid").exists()


def test_status_of_a_server_never_started(tmp_path):
    env = {**os.environ, "GRAPHMIND_HOME": str(tmp_path / "h"), "GRAPHMIND_BOLT_PORT": str(_free_port())}
    done = subprocess.run(
        [sys.executable, "-m", "graphmind.cli", "neo4j", "status", "--json"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    status = json.loads(done.stdout)
    assert done.returncode == 0 and status["running"] is False
    assert {"uri", "running", "user", "password_file"} <= status.keys()


def test_status_says_in_plain_words_how_to_log_in_to_neo4j_browser(tmp_path):
    env = {**os.environ, "GRAPHMIND_HOME": str(tmp_path / "h"), "GRAPHMIND_BOLT_PORT": str(_free_port())}
    secret = tmp_path / "h" / "neo4j" / "password"
    secret.parent.mkdir(parents=True)
    secret.write_text("s3cret-pw\n")

    def status(*flags: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "graphmind.cli", "neo4j", "status", *flags],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout

    text = status()
    assert (
        "Username:        neo4j" in text and f"Connect URL:     bolt://127.0.0.1:{env['GRAPHMIND_BOLT_PORT']}" in text
    )
    assert f"the text in {secret}" in text and "--show-password" in text
    assert "Once started ('graphmind neo4j start'), Neo4j Browser: open" in text  # it is not running
    assert "s3cret-pw" not in text  # the secret itself only when asked for
    assert "Password:        s3cret-pw" in status("--show-password")
    assert json.loads(status("--show-password", "--json"))["password"] == "s3cret-pw"


def test_stop_says_the_server_stopped_without_how_to_log_in(tmp_path):
    env = {**os.environ, "GRAPHMIND_HOME": str(tmp_path / "h"), "GRAPHMIND_BOLT_PORT": str(_free_port())}
    done = subprocess.run(
        [sys.executable, "-m", "graphmind.cli", "neo4j", "stop"], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.startswith("Neo4j stopped") and "Neo4j Browser" not in done.stdout


@needs_java
def test_start_serves_bolt_with_a_private_password_and_stop_is_graceful(tmp_path):
    settings = _settings(tmp_path, _free_port(), _free_port())
    local = LocalNeo4j(settings)
    status = local.start()
    try:
        assert status.running and status.pid
        assert stat.S_IMODE(local.password_file.stat().st_mode) == 0o600
        store = GraphStore(connect(status.uri, "neo4j", local.password()), Catalog.load())
        store.verify()
        store.close()
        assert local.start().pid == status.pid  # starting twice is a no-op
        _assert_private(tmp_path / "home")
        if sys.platform.startswith("linux"):  # the throughput collector, not Neo4j's default G1
            command = (Path("/proc") / str(status.pid) / "cmdline").read_bytes().split(b"\0")
            assert b"-XX:+UseParallelGC" in command and b"-XX:+UseG1GC" not in command
    finally:
        stopped = local.stop()
    assert not stopped.running and stopped.pid is None
    with pytest.raises(ProcessLookupError):
        os.kill(status.pid, 0)
    log = (tmp_path / "home" / "neo4j" / "logs" / "neo4j.log").read_text()
    assert "Stopped." in log


def _assert_private(home: Path) -> None:
    """Every folder under ``home`` is 0700 and every file 0600 (Neo4j's store files included)."""
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    files = 0
    for folder, _dirs, names in os.walk(home):
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700, folder
        for name in names:
            path = Path(folder) / name
            if path.is_file() and not path.is_symlink():
                files += 1
                assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0, path
    assert files > 10  # the store, its transaction log, the logs, conf, the pid and password files


def test_a_home_made_before_files_were_private_is_closed_at_the_next_start(tmp_path):
    root = tmp_path / "neo4j"
    (root / "data" / "databases" / "neo4j").mkdir(parents=True, mode=0o755)
    store = root / "data" / "databases" / "neo4j" / "neostore"
    store.write_bytes(b"x")
    store.chmod(0o644)
    script = root / "run.sh"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    (root / "data").chmod(0o755)
    _make_private(root)
    assert stat.S_IMODE((root / "data").stat().st_mode) == 0o700
    assert stat.S_IMODE((root / "data" / "databases" / "neo4j").stat().st_mode) == 0o700
    assert stat.S_IMODE(store.stat().st_mode) == 0o600
    assert stat.S_IMODE(script.stat().st_mode) == 0o700  # the user's own bits are kept
