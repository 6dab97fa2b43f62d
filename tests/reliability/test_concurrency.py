"""Concurrent load on one mind (issue 25, item 3): writers capturing, ruminations, dreams and a
wander run at the same time, on the shared test Neo4j.

- No lost writes: every capture is in the graph after the dream, consumed by a run or queued
  for the next one (a last dream consumes it).
- No deadlock or transient error reaches a caller: the store's transactions retry them.
- Two dreams never overlap: the lease makes the second wait (``wait_seconds``), and the
  DreamRuns' [started_at, finished_at] intervals are disjoint.
- Two steps of one wander session are serialised: two runners on one session make one chain
  of steps (numbers 1..n once each, each step leaving from where the last arrived).

CI runs a small load; ``GRAPHMIND_RELIABILITY_LONG=1`` (``python bench/reliability_table.py --long``) a larger one.
"""

from __future__ import annotations

import json
import os
import threading
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import Any

import pytest

from graphmind.config import Settings
from graphmind.dream import DreamParams
from graphmind.dream.engine import Dreamer
from graphmind.errors import RunError, ValidationError
from graphmind.mind import Mind
from graphmind.models import Experience
from graphmind.store import GraphStore
from tests.integration.helpers import DEMO, experiences

LONG = os.environ.get("GRAPHMIND_RELIABILITY_LONG") == "1"
WRITERS, CAPTURES = 8, (400 if LONG else 25)
RUMINATIONS = 4
DREAMS = 3 if LONG else 2
WANDER_STEPS, RACING_STEPS = (6, 4) if LONG else (2, 2)
STIMULI = (
    "why do duplicate settlements come back",
    "what did we learn about retry budgets",
    "how do idempotency keys survive a failover",
    "what must ship before the change freeze",
)


class Load:
    """Runs callables in threads, all released at once; keeps what each returned or raised."""

    def __init__(self) -> None:
        self.start = threading.Barrier(1)
        self.jobs: list[tuple[str, Callable[[], Any]]] = []
        self.results: dict[str, Any] = {}
        self.errors: dict[str, BaseException] = {}

    def add(self, name: str, job: Callable[[], Any]) -> None:
        self.jobs.append((name, job))

    def run(self) -> None:
        self.start = threading.Barrier(len(self.jobs))
        threads = [threading.Thread(target=self._one, args=(name, job), name=name) for name, job in self.jobs]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=900)
        assert not any(t.is_alive() for t in threads), "a job hung (deadlock?)"

    def _one(self, name: str, job: Callable[[], Any]) -> None:
        self.start.wait()
        try:
            self.results[name] = job()
        except BaseException as exc:  # every failure is reported by the test
            self.errors[name] = exc


def _writer(name: str, store: GraphStore, settings: Settings, k: int) -> list[str]:
    """An agent capturing CAPTURES experiences through its own Mind (write-behind queue)."""
    with Mind(name, store, settings) as m:
        ids = [
            m.capture(
                {
                    "id": f"w{k}-{i}",
                    "description": f"writer {k} step {i}: retried the settlement batch after a timeout",
                    "outcome": "success" if i % 3 else "failure",
                },
                session_id=f"writer-{k}",
            )
            for i in range(CAPTURES)
        ]
        m.flush()
    return ids


def _on(name: str, store: GraphStore, settings: Settings, work: Callable[[Mind], Any]) -> Callable[[], Any]:
    def job() -> Any:
        with Mind(name, store, settings) as m:
            return work(m)

    return job


def _ruminate(stimulus: str, m: Mind) -> Any:
    return m.ruminate(stimulus)


def _dream(m: Mind) -> Any:
    return m.dream(DreamParams(wait_seconds=600))  # the second run waits for the first's lease


def _moves(per_technique: int) -> list[Experience | dict[str, Any]]:
    moves: list[Experience | dict[str, Any]] = []
    moves.extend(experiences(per_technique=per_technique))
    return moves


def _runs(m: Mind) -> list[dict[str, Any]]:
    return [r["props"] for r in m.store.read("dream/list_runs", mind=m.name)]


def test_writers_ruminations_dreams_and_a_wander_at_once_lose_nothing(
    mind: Mind, store: GraphStore, settings: Settings
) -> None:
    mind.import_jsonl(DEMO)
    mind.capture_many(_moves(4))
    walk = mind.wander("race condition", rng_seed=5, human_checkpoint_frequency=0)
    racing = walk.id
    name = mind.name
    load = Load()
    for k in range(WRITERS):
        load.add(f"writer {k}", partial(_writer, name, store, settings, k))
    for i in range(RUMINATIONS):
        load.add(f"rumination {i}", _on(name, store, settings, partial(_ruminate, STIMULI[i])))
    for i in range(DREAMS):
        load.add(f"dream {i}", _on(name, store, settings, _dream))
    load.add(
        "wander",
        _on(
            name,
            store,
            settings,
            lambda m: m.wander("idempotency keys", rng_seed=3, human_checkpoint_frequency=0).run(WANDER_STEPS),
        ),
    )
    for i in range(2):  # two runners on one session
        load.add(f"racer {i}", _on(name, store, settings, lambda m: m.wander(session_id=racing).run(RACING_STEPS)))
    load.run()

    racers = {n: e for n, e in load.errors.items() if n.startswith("racer")}
    others = {n: e for n, e in load.errors.items() if not n.startswith("racer")}
    assert others == {}, {n: f"{type(e).__name__}: {e}" for n, e in others.items()}
    # A runner that found the session moved on by the other is told so in one sentence; never a
    # store error.
    assert all(isinstance(e, ValidationError) and "moved on elsewhere" in str(e) for e in racers.values()), racers
    assert len(racers) < 2

    captured = [i for k in range(WRITERS) for i in load.results[f"writer {k}"]]
    assert len(set(captured)) == WRITERS * CAPTURES
    # Every capture is in the graph: consumed by a dream of the load, or queued for the next one.
    assert set(captured) <= _experience_ids(mind)
    dreams = [load.results[f"dream {i}"] for i in range(DREAMS)]
    assert all(d.status in {"completed", "nothing_to_consolidate"} for d in dreams)
    last = mind.dream()
    assert last.status in {"completed", "nothing_to_consolidate"}
    assert set(captured) <= _seen_by_a_dream(mind)

    _assert_no_overlap(_runs(mind))
    assert len([r for r in load.results if r.startswith("rumination")]) == RUMINATIONS
    assert mind.stats().labels.get("RuminationRun") == RUMINATIONS
    _assert_one_chain(mind, racing)
    half = mind.store.read("stats/count_half_written", mind=mind.name)[0]
    assert not any(half.values()), half


def _experience_ids(m: Mind) -> set[str]:
    return {
        item["id"]
        for item in map(json.loads, m.export_jsonl())
        if item.get("type") == "node" and item.get("label") == "Experience"
    }


def _seen_by_a_dream(m: Mind) -> set[str]:
    """Experiences a dream run consumed or deferred (to a later run)."""
    return {
        item["to"]
        for item in map(json.loads, m.export_jsonl())
        if item.get("type") == "edge" and item.get("rel") in {"CONSUMED", "DEFERRED"}
    }


def _assert_no_overlap(runs: list[dict[str, Any]]) -> None:
    spans = sorted((_time(r["started_at"]), _time(r["finished_at"])) for r in runs if r.get("status") == "completed")
    assert spans
    for (_, end), (start, _) in zip(spans, spans[1:]):
        assert end <= start, f"two dream runs overlapped: {spans}"


def _time(value: Any) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


def _assert_one_chain(m: Mind, session_id: str) -> None:
    """The session's steps are 1..n once each, each leaving from where the previous arrived."""
    steps = m.wander(session_id=session_id).trace()
    _assert_chain([(s["step_number"], s["from_id"], s["to_id"]) for s in steps])
    assert m.wander_sessions.get(session_id).steps_completed == len(steps)


def _assert_chain(steps: list[tuple[int, str, str]]) -> None:
    numbers = Counter(n for n, _, _ in steps)
    assert sorted(numbers) == list(range(1, len(numbers) + 1)) and set(numbers.values()) == {1}, steps
    ordered = sorted(steps)
    for (_, _, arrived), (_, left, _) in zip(ordered, ordered[1:]):
        assert left == arrived, f"a step left from elsewhere than the last one arrived: {ordered}"


def test_the_overlap_check_can_fail() -> None:
    """Two runs whose intervals cross are caught; two after one another are not."""
    one = {"status": "completed", "started_at": "2026-01-01T10:00:00+00:00", "finished_at": "2026-01-01T10:05:00+00:00"}
    two = {"status": "completed", "started_at": "2026-01-01T10:04:00+00:00", "finished_at": "2026-01-01T10:06:00+00:00"}
    with pytest.raises(AssertionError, match="overlapped"):
        _assert_no_overlap([one, two])
    _assert_no_overlap([one, {**two, "started_at": "2026-01-01T10:05:00+00:00"}])


def test_the_chain_check_can_fail() -> None:
    """Two steps numbered alike, a gap, or a step that leaves from elsewhere are caught."""
    chain = [(1, "a", "b"), (2, "b", "c"), (3, "c", "d")]
    _assert_chain(chain)
    for broken in ([*chain, (3, "c", "e")], [chain[0], chain[2]], [chain[0], (2, "x", "c"), chain[2]]):
        with pytest.raises(AssertionError):
            _assert_chain(broken)


def test_a_run_that_lost_its_lease_before_publishing_writes_nothing(mind: Mind) -> None:
    """The lease is checked inside the publishing transaction: a run whose lease another run
    took after its last renewal publishes nothing (two dreams never both write)."""
    mind.capture_many(_moves(4))

    def steal(step: str) -> None:
        if step == "dream/mark_lease":  # the transaction is open; the lease is not locked yet
            (holder,) = [r["id"] for r in _runs_rows(mind) if r["props"]["status"] == "running"]
            mind.store.write("dream/delete_lease", mind=mind.name, holder=holder)
            assert mind.store.write("dream/mark_lease", mind=mind.name, holder="intruder", seconds=120)[0]["acquired"]

    dreamer = Dreamer(mind.store, mind.embedder, mind.llm, DreamParams(), on_publish_step=steal)
    with pytest.raises(RunError, match="lost its lease .* to intruder before it published; nothing of it was written"):
        dreamer.dream(mind.name)
    assert mind.stats().labels.get("Pattern", 0) == 0 and mind.stats().labels.get("Abstraction", 0) == 0
    assert [r["props"]["status"] for r in _runs_rows(mind)] == ["failed"]


def _runs_rows(m: Mind) -> list[dict[str, Any]]:
    return m.store.read("dream/list_runs", mind=m.name)


RECALLERS, RECALLS = (32, 30) if LONG else (32, 15)
RECALL_QUERIES = ("race condition", "worker crash", "settlement retries", "pairing", "timeouts", "what failed")


def _recalls(offset: int, m: Mind) -> int:
    """RECALLS recalls (each counts a hit on every memory it returns); how many hits they returned."""
    return sum(len(m.recall(RECALL_QUERIES[(offset + i) % len(RECALL_QUERIES)], k=10).hits) for i in range(RECALLS))


def test_concurrent_recalls_of_the_same_memories_never_fail(mind: Mind, store: GraphStore, settings: Settings) -> None:
    """Recalls that count hits on the same memories in different orders (the REST API under 32
    clients) lock them in one order, so none deadlocks into an error, and every hit is counted."""
    mind.import_jsonl(DEMO)
    mind.embed()
    before = sum(r["props"].get("hits") or 0 for r in store.read("export/list_nodes", mind=mind.name))
    load = Load()
    for k in range(RECALLERS):
        load.add(f"recaller-{k}", _on(mind.name, store, settings, partial(_recalls, k)))
    load.run()
    assert not load.errors, {name: repr(exc) for name, exc in load.errors.items()}
    after = sum(r["props"].get("hits") or 0 for r in store.read("export/list_nodes", mind=mind.name))
    assert after - before == sum(load.results.values()) > 0  # every hit counted once, none lost
