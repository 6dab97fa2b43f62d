"""Recall counts its hits behind the call (graphmind/recall/hit_counter.py), on the real Neo4j: a
recall never waits for another's hit write, and no hit is lost at close, at interpreter exit, when
the queue is full, or when a write fails."""

from __future__ import annotations

import logging
import subprocess
import sys
import threading

import pytest

from graphmind.app import connection
from graphmind.errors import StoreError
from graphmind.mind import Mind
from graphmind.recall.caches import VectorStates
from graphmind.recall.hit_counter import count_hits, flush_hits
from graphmind.store import Catalog, GraphStore, connect

from .helpers import DEMO

pytestmark = pytest.mark.integration

QUERY = "duplicate payouts"


def connect_to(settings):
    uri, user, password = connection(settings)
    return connect(uri, user, password)


def _hits(store: GraphStore, mind: str, node_id: str) -> int:
    return store.read("memory/get_node", mind=mind, id=node_id)[0]["props"].get("hits") or 0


@pytest.fixture
def demo(mind: Mind) -> Mind:
    mind.import_jsonl(DEMO)
    mind.embed()
    mind.recall(QUERY, k=1)  # loads what the first recall loads
    mind.flush()
    return mind


def test_a_recall_does_not_wait_for_a_hit_write_that_holds_its_memories(demo: Mind, store: GraphStore) -> None:
    """Another writer holds the lock on the recalled memory (as a concurrent recall's hit write
    did); the recall still returns, and its hit is counted once the lock is released."""
    top = demo.recall(QUERY, k=1).hits[0].id
    demo.flush()
    before = _hits(store, demo.name, top)
    done = threading.Event()
    with store.transaction() as tx:
        tx.run("recall/mark_hits", mind=demo.name, uids=[f"{demo.name}:{top}"])  # holds the write lock
        waiter = threading.Thread(target=lambda: (demo.recall(QUERY, k=1), done.set()), daemon=True)
        waiter.start()
        returned = done.wait(timeout=120)  # a hang detector: the recall needs no lock
    waiter.join()
    assert returned, "the recall waited for the lock held by another hit write"
    demo.flush()
    assert _hits(store, demo.name, top) == before + 2  # the other writer's hit and the recall's


def test_hits_are_counted_when_the_mind_is_closed(demo: Mind, store: GraphStore, settings) -> None:
    ids = [hit.id for hit in demo.recall(QUERY, k=3).hits]
    demo.flush()
    before = {i: _hits(store, demo.name, i) for i in ids}
    own = Mind(demo.name, store, settings)
    assert [hit.id for hit in own.recall(QUERY, k=3).hits] == ids
    own.close()  # then read straight from the store
    assert {i: _hits(store, demo.name, i) for i in ids} == {i: before[i] + 1 for i in ids}


def test_hits_are_counted_at_interpreter_exit(demo: Mind, store: GraphStore, cli_env) -> None:
    """A script that recalls and exits without closing its Mind still counts its hits."""
    top = demo.recall(QUERY, k=1).hits[0].id
    demo.flush()
    before = _hits(store, demo.name, top)
    script = f"from graphmind import Mind\nMind.open({demo.name!r}).recall({QUERY!r}, k=1)\n"
    subprocess.run([sys.executable, "-c", script], env=cli_env, check=True, timeout=300)
    assert _hits(store, demo.name, top) == before + 1


def test_a_full_queue_counts_in_the_caller(demo: Mind, store: GraphStore) -> None:
    uid = f"{demo.name}:conv-race-2"
    before = _hits(store, demo.name, "conv-race-2")
    count_hits(store, demo.name, [uid], max_pending=0)  # no room: written before it returns
    assert _hits(store, demo.name, "conv-race-2") == before + 1


def test_hits_queued_together_are_counted_each(demo: Mind, store: GraphStore) -> None:
    uid = f"{demo.name}:conv-race-2"
    before = _hits(store, demo.name, "conv-race-2")
    for _ in range(5):
        count_hits(store, demo.name, [uid, uid])  # twice in one recall counts once
    flush_hits(store)
    assert _hits(store, demo.name, "conv-race-2") == before + 5


def test_a_failed_hit_write_is_logged_raised_by_flush_and_reported_at_close(demo: Mind, settings, caplog) -> None:
    failing = GraphStore(connect_to(settings), Catalog({}))  # a real store that knows no query
    with caplog.at_level(logging.WARNING, logger="graphmind.recall.hit_counter"):
        count_hits(failing, demo.name, [f"{demo.name}:conv-race-2"])
        with pytest.raises(StoreError, match="wait for their hit count"):
            flush_hits(failing)
        assert "counting hits of recalled memories failed; retrying" in caplog.text
        failing.close()  # the last attempt fails too: reported, not dropped in silence
    assert "1 hits on 1 recalled memories of " + demo.name + " were not counted" in caplog.text


def test_the_vector_state_is_read_again_after_a_write_but_not_after_a_hit_count(demo: Mind, store: GraphStore) -> None:
    now = [0.0]
    states = VectorStates(store, ttl_s=10.0, clock=lambda: now[0])
    first = states.get(demo.name)
    count_hits(store, demo.name, [f"{demo.name}:conv-race-2"])
    flush_hits(store)  # a hit count changes nothing recall caches
    assert states.get(demo.name) is first
    demo.capture({"description": "a new experience waits for the embedding pass", "outcome": "success"}, wait=True)
    fresh = states.get(demo.name)
    assert fresh is not first and fresh["pending"]
    now[0] = 10.0  # past the time a state is trusted (another process may have written)
    assert states.get(demo.name) is not fresh
