"""Neo4j dies mid-command (SIGKILL of the server): one sentence, exit 1, no driver lines on
stderr, one call's worth of retries (GRAPHMIND_NEO4J_FAIL_AFTER), an interrupted wander named,
and a dream run killed mid-way read as ``interrupted`` by the next run.

These tests start a throwaway Neo4j of their own (never the shared test server) on free ports
and kill it; the bound itself is checked through the configuration and the number of driver
retries, not the clock.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from graphmind.app import init_database, open_store
from graphmind.config import Settings
from graphmind.errors import StoreUnavailableError
from graphmind.launcher import LocalNeo4j
from graphmind.mind import Mind
from tests.integration.helpers import DEMO, experiences, node, write_jsonl

pytestmark = pytest.mark.skipif(not (shutil.which("java") and shutil.which("mvn")), reason="needs Java and Maven")

FAIL_AFTER = "4"  # seconds: the driver retries a call for 2 s (half), its last delay taking it to ~3
RETRIED = "Transaction failed and will be retried"
GONE = (
    r"Neo4j is not reachable \((Connection refused|Connection reset by peer|the server closed the connection)\); "
    r"start it with 'graphmind neo4j start' or set NEO4J_URI"
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    local: LocalNeo4j
    settings: Settings
    env: dict[str, str]

    def up(self) -> None:
        self.local.start()

    def kill(self) -> None:
        """SIGKILL the server, as a crash would, and reap it."""
        pid = self.local.status().pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:  # started by another process: wait for it to go
            while Path(f"/proc/{pid}").exists():
                time.sleep(0.05)

    def mind(self) -> Mind:
        return Mind(f"test-crash-{uuid.uuid4().hex[:10]}", open_store(self.settings), self.settings)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NEO4J_")}
    env.update(
        {
            "GRAPHMIND_HOME": str(tmp_path_factory.mktemp("crash-home")),
            "GRAPHMIND_BOLT_PORT": str(_free_port()),
            "GRAPHMIND_HTTP_PORT": str(_free_port()),
            "GRAPHMIND_NEO4J_HEAP": "512m",
            "GRAPHMIND_NEO4J_PAGECACHE": "128m",
            "GRAPHMIND_NEO4J_FAIL_AFTER": FAIL_AFTER,
            "GRAPHMIND_LLM": "offline",
        }
    )
    env.pop("GRAPHMIND_LOG_LEVEL", None)
    settings = Settings.from_env(env)
    local = LocalNeo4j(settings)
    local.start()
    try:
        store = open_store(settings)
        init_database(store, settings)
        store.close()
        yield Server(local, settings, env)
    finally:
        local.stop()


def graphmind(
    server: Server, *args: str, kill_on: str | None = None, kill_when=None
) -> subprocess.CompletedProcess[str]:
    """Run the CLI; kill the server at the first stderr line holding ``kill_on``, or once
    ``kill_when()`` is true (polled)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "graphmind.cli", *args],
        env=server.env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    killed = threading.Event()
    if kill_when is not None:

        def poll() -> None:
            while proc.poll() is None and not kill_when():
                time.sleep(0.1)
            if proc.poll() is None:
                server.kill()
                killed.set()

        threading.Thread(target=poll, daemon=True).start()
    err = []
    assert proc.stderr is not None
    for line in proc.stderr:
        err.append(line)
        if kill_on and kill_on in line and not killed.is_set():
            server.kill()
            killed.set()
    out = proc.stdout.read() if proc.stdout else ""
    code = proc.wait()
    assert killed.is_set(), f"the command ended before Neo4j was killed: {''.join(err)}"
    return subprocess.CompletedProcess(proc.args, code, out, "".join(err))


def assert_one_sentence(stderr: str, *, prefix: str = "") -> str:
    """The last stderr line is graphmind's sentence; every other line starts with ``prefix``."""
    lines = stderr.splitlines()
    assert lines and lines[-1].startswith("graphmind: "), stderr
    assert all(prefix and line.startswith(prefix) for line in lines[:-1]), stderr
    assert RETRIED not in stderr and "<CONNECTION>" not in stderr and "Traceback" not in stderr
    return lines[-1]


def test_an_import_killed_by_a_neo4j_crash_is_one_clear_sentence(server, tmp_path):
    server.up()
    mind = f"test-crash-{uuid.uuid4().hex[:10]}"
    rows = [
        node("Experience", f"e{i}", description=f"worker {i} raced the settlement batch", outcome="failure")
        for i in range(150_000)
    ]
    big = write_jsonl(tmp_path / "big.jsonl", rows)
    store = open_store(server.settings)

    def written() -> bool:  # the first batch has committed: the import is writing
        return any(r["mind"] == mind for r in store.read("admin/count_minds"))

    done = graphmind(server, "import", str(big), "--mind", mind, kill_when=written)
    store.close()
    assert done.returncode == 1
    sentence = assert_one_sentence(done.stderr)
    assert re.match(f"graphmind: {GONE}", sentence), sentence  # the importer adds what was written


def test_a_dream_killed_mid_run_fails_once_and_the_next_run_reads_it_interrupted(server, caplog):
    server.up()
    mind = server.mind()
    mind.capture_many(experiences())
    caplog.set_level(logging.WARNING, logger="neo4j")

    def progress(line: str) -> None:
        if line.startswith("triage"):
            server.kill()

    with pytest.raises(StoreUnavailableError, match=f"^{GONE}$"):
        mind.dream(progress=progress)
    # One call spent the retries (about FAIL_AFTER / 2 s of them); the calls after it (the run's
    # failure record, giving the lease back) failed at once instead of each retrying again.
    retries = [r for r in caplog.records if r.getMessage().startswith(RETRIED)]
    assert 1 <= len(retries) <= 3
    assert mind.store._outage.fail_after_s == float(FAIL_AFTER)

    server.up()
    dead = [r for r in mind.store.read("dream/list_runs", mind=mind.name)]
    assert [r["props"]["status"] for r in dead] == ["running"]  # it could not record its end
    mind.store.write("dream/delete_lease", mind=mind.name, holder=dead[0]["id"])  # as if it lapsed
    said: list[str] = []
    report = mind.dream(progress=said.append)
    assert report.status == "completed" and said[0] == "1 earlier run(s) that never finished marked interrupted"
    runs = {r["id"]: r["props"] for r in mind.store.read("dream/list_runs", mind=mind.name)}
    assert runs[dead[0]["id"]]["status"] == "interrupted" and runs[report.run_id]["status"] == "completed"
    mind.delete()
    mind.store.close()


def test_the_dream_command_killed_mid_run_prints_its_progress_then_one_sentence(server):
    server.up()
    mind = server.mind()
    mind.capture_many(experiences())
    mind.store.close()
    done = graphmind(server, "dream", "--mind", mind.name, kill_on="dream: triage")
    assert done.returncode == 1
    assert re.fullmatch(f"graphmind: {GONE}", assert_one_sentence(done.stderr, prefix="dream: "))


def test_an_interrupted_wander_names_its_session_and_last_step(server):
    server.up()
    mind = server.mind()
    mind.import_jsonl(DEMO)
    steps = {"n": 0}

    def crash_on_third(_: str) -> None:
        steps["n"] += 1
        if steps["n"] == 3:
            server.kill()

    handle = mind.wander("race condition", rng_seed=5, before_commit=crash_on_third, human_checkpoint_frequency=0)
    with pytest.raises(StoreUnavailableError) as info:
        handle.run(5)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(
        f"wander session {handle.id} of mind {mind.name!r} was interrupted after step 2: Neo4j is not reachable ("
    )
    assert message.endswith(
        f"continue it with 'graphmind wander run --session {handle.id} --mind {mind.name} --steps N'"
    )
    server.up()
    assert mind.wander(session_id=handle.id).run(1).total_steps == 3  # it continues where it stopped
    mind.delete()
    mind.store.close()
