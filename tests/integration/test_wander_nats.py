"""Wander events reach a real NATS server (issue 7, events): ``nats-server`` from Debian's
packages (``.ci/run`` installs it), started on a free port for this test."""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import threading
import time

import pytest

from graphmind.wander.events import EventBus, NatsPublisher

pytest.importorskip("nats")
NATS_SERVER = shutil.which("nats-server") or shutil.which("nats-server", path="/usr/sbin:/usr/local/sbin")


@pytest.fixture
def nats_url():
    if NATS_SERVER is None:
        pytest.skip("nats-server is not installed (apt-get install nats-server; .ci/run does)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [NATS_SERVER, "-a", "127.0.0.1", "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    yield f"nats://127.0.0.1:{port}"
    server.terminate()
    server.wait(10)


def test_events_are_published_to_nats(nats_url, mind, tmp_path):
    import nats

    received: list[tuple[str, bytes]] = []

    async def listen(ready: asyncio.Event, stop: asyncio.Event) -> None:
        nc = await nats.connect(nats_url)

        async def append(msg) -> None:
            received.append((msg.subject, msg.data))

        await nc.subscribe("wander.>", cb=append)
        await nc.flush()
        ready.set()
        await stop.wait()
        await nc.drain()

    loop = asyncio.new_event_loop()
    ready, stop = asyncio.Event(), asyncio.Event()
    thread = threading.Thread(target=lambda: loop.run_until_complete(listen(ready, stop)), daemon=True)
    thread.start()
    _wait(lambda: ready.is_set())
    publisher = NatsPublisher.connect(nats_url)
    bus = EventBus(tmp_path / "events.jsonl", publisher)
    mind.engines._events = bus  # the composition root builds this bus from NATS_URL; here the test's own
    from tests.integration.helpers import DEMO

    mind.import_jsonl(DEMO)
    mind.wander("race conditions in async code", steps=2, rng_seed=1)
    publisher.close()
    _wait(lambda: sum(s == "wander.step.completed" for s, _ in received) == 2)
    loop.call_soon_threadsafe(stop.set)
    thread.join(10)
    loop.close()
    subjects = [s for s, _ in received]
    assert subjects[0] == "wander.session.created" and "wander.locus.visited" in subjects
    logged = (tmp_path / "events.jsonl").read_text().splitlines()
    assert len(logged) == len(received)  # the JSONL log and NATS saw the same events


def test_an_unreachable_nats_is_one_clear_error():
    from graphmind.errors import ProviderUnavailableError

    with pytest.raises(ProviderUnavailableError, match="could not reach NATS"):
        NatsPublisher.connect("nats://127.0.0.1:1", timeout_s=1)


def _wait(condition, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.02)
