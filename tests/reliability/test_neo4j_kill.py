"""The Neo4j fault suite (issue 25, item 1): SIGKILL the local Neo4j in the middle of a dream (at
each phase, and inside its publishing transaction), a wander run, a rumination, a digest absorb
and a ``threads merge``, all through the CLI.

For each fault, three things:
1. at the time: a non-zero exit, one ``graphmind:`` sentence last on stderr, no traceback;
2. after ``graphmind neo4j start``: nothing half-written (``stats/count_half_written`` reads 0
   everywhere: no ladder without its patterns, no orphan residue, no DreamRun left ``running``;
   a killed run reads ``interrupted``);
3. re-running the command completes and leaves the same graph as an undisturbed run on a twin
   mind (canonical exports compared: run ids and timestamps normalised, the interrupted run's
   record set aside).

The kill is deterministic: the test arms the store's query choke point (``GraphStore._query``)
or a dream phase, and the server dies just before that query or phase runs. It kills a
throwaway Neo4j of its own (tests/integration/test_neo4j_crash.py's ``server`` fixture: free
ports, its own home), never the shared test server. CI runs a few faults; the whole matrix
(every dream phase and every statement of the publishing transaction) runs with
``GRAPHMIND_RELIABILITY_LONG=1`` (``python bench/reliability_table.py --long``).
"""

from __future__ import annotations

import json
import os
import re
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from graphmind.app import open_store
from graphmind.cli.main import main
from graphmind.config import Settings
from graphmind.dream import engine as dream_engine
from graphmind.mind import Mind
from graphmind.models import Experience
from graphmind.store import GraphStore
from tests.integration.helpers import DEMO, experiences, node, write_jsonl
from tests.integration.test_neo4j_crash import RETRIED, Server, server  # noqa: F401 - fixture

LONG = os.environ.get("GRAPHMIND_RELIABILITY_LONG") == "1"
DREAM_PHASES = ("read", "embed", "triage", "compress", "integrate", "abstract", "verify")
PUBLISH_STEPS = (
    "dream/mark_lease",
    "dream/upsert_run",
    "dream/upsert_patterns",
    "dream/link_experiences",
    "dream/mark_pruned",
    "dream/mark_retired",
    "dream/upsert_abstractions",
    "dream/link_connections",
    "dream/link_contradictions",
)
RUN_ID = re.compile(r"\b(dream|rumination|wander)-\d{8}T\d{6}-[0-9a-f]{6}")
MADE_ID = re.compile(r"\b(locus|crystal|resonance)-[0-9a-f]{8,12}\b")
VOLATILE = {"timings_ms", "timings", "seconds", "last_visited", "signals"}
"""Properties that differ between two undisturbed runs (besides *_at, *_ms): the clock's
readings, and a rumination step's relevance signals, scored against the full-text index that
every mind of the database shares (other minds' writes move its statistics in the 2nd decimal);
the steps, their findings and what they cite are compared."""
WANDER = ("--seed", "race condition", "--rng-seed", "5", "--checkpoint-every", "0")
WANDER_STEPS = 3


@dataclass(frozen=True)
class Fault:
    """A command, what its mind holds first, and where the server dies."""

    name: str
    setup: Callable[[Mind], object]
    command: Callable[[str], list[str]]
    at: tuple[str, str, int]  # ("phase" | "query", name, occurrence)
    resume: Callable[[Mind], list[str]] | None = None  # the re-run, when it is not the command again
    loose: frozenset[str] = frozenset()
    """Labels whose nodes are set aside with their edges and the hits they count, runs among
    them counted: a rumination's findings follow the approximate vector index, which a restart
    of Neo4j may rebuild with other near ties (other neighbours, more or fewer findings); that
    it recorded one run, whole (stats/count_half_written), is compared."""


def _dream(m: Mind) -> object:
    moves: list[Experience | dict[str, Any]] = []
    moves.extend(experiences(per_technique=5))
    return m.capture_many(moves)


def _demo(m: Mind) -> object:
    return m.import_jsonl(DEMO)


def _embedded(m: Mind) -> object:
    """The demo mind, its memories embedded (as after any first recall): a rumination's
    exploration then reads the same vectors on every run."""
    m.import_jsonl(DEMO)
    return m.embed()


def _wander_rest(m: Mind) -> list[str]:
    (session,) = m.wander_sessions.list()
    left = WANDER_STEPS - (session.steps_completed or 0)
    return ["wander", "run", "--mind", m.name, "--session", session.id, "--steps", str(left)]


def _faults() -> list[Fault]:
    dream = lambda name: ["dream", "--mind", name]  # noqa: E731
    phases = DREAM_PHASES if LONG else ("compress",)
    steps = PUBLISH_STEPS if LONG else ("dream/upsert_abstractions",)
    ruminate = lambda name: ["ruminate", "why do duplicate settlements come back", "--mind", name]  # noqa: E731
    told = frozenset({"RuminationRun", "Finding"})
    long = [Fault("rumination at its record", _embedded, ruminate, ("query", "ruminate/upsert_run", 1), loose=told)]
    return [
        *(long if LONG else []),
        *(Fault(f"dream at {p}", _dream, dream, ("phase", p, 1)) for p in phases),
        *(Fault(f"dream publishing at {s}", _dream, dream, ("query", s, 1)) for s in steps),
        Fault(
            "wander run mid-step 2",
            _demo,
            lambda name: ["wander", "run", "--mind", name, "--steps", str(WANDER_STEPS), *WANDER],
            ("query", "wander/link_step", 2),
            _wander_rest,
        ),
        Fault("rumination at its hit count", _embedded, ruminate, ("query", "recall/mark_hits", 1), loose=told),
        Fault(
            "digest absorb",
            _demo,
            lambda name: ["digest", "absorb", "topic-queues-1", "--mind", name],
            ("query", "digest/mark_absorbed", 1),
        ),
        Fault(
            "threads merge",
            _demo,
            lambda name: [
                "threads",
                "merge",
                "thread-duplicates",
                "thread-holiday-readiness",
                "--title",
                "Duplicates before the freeze",
                "--mind",
                name,
            ],
            ("query", "digest/upsert_merged_thread", 1),
        ),
    ]


FAULTS = _faults()


# -- helpers ----------------------------------------------------------------------------------


@pytest.fixture
def env(server: Server, monkeypatch: pytest.MonkeyPatch) -> Server:
    """The in-process CLI talks to the throwaway server (and only to it)."""
    for name in [n for n in os.environ if n.startswith("NEO4J_")]:
        monkeypatch.delenv(name)
    for name, value in server.env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("GRAPHMIND_EMBEDDER", "hashing")
    return server


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@contextmanager
def armed(server: Server, at: tuple[str, str, int]) -> Iterator[list[str]]:
    """Kill the server just before the ``at`` query or dream phase runs (its Nth occurrence)."""
    kind, target, nth = at
    fired: list[str] = []
    seen = {"n": 0}

    def trip(name: str) -> None:
        if name == target and not fired:
            seen["n"] += 1
            if seen["n"] == nth:
                server.kill()
                fired.append(name)

    with pytest.MonkeyPatch.context() as patch:
        if kind == "query":
            original_query = GraphStore._query

            def _query(self: GraphStore, name: str, params: dict[str, Any], *modes: str) -> Any:
                trip(name)
                return original_query(self, name, params, *modes)

            patch.setattr(GraphStore, "_query", _query)
        else:
            original_phase = dream_engine._Run._phase

            def _phase(self: Any, name: str, work: Callable[[], Any]) -> Any:
                trip(name)
                return original_phase(self, name, work)

            patch.setattr(dream_engine._Run, "_phase", _phase)
        yield fired


def one_sentence(stderr: str) -> str:
    """The last stderr line is graphmind's one sentence; no traceback, no driver noise."""
    lines = stderr.strip().splitlines()
    assert lines and lines[-1].startswith("graphmind: "), stderr
    assert "Traceback" not in stderr and RETRIED not in stderr and "<CONNECTION>" not in stderr, stderr
    assert not any(line.startswith("graphmind: ") for line in lines[:-1]), stderr
    return lines[-1]


def canonical(lines: list[str], loose: frozenset[str] = frozenset()) -> list[str]:
    """A mind's export, comparable across runs: run ids, the ids made from them (a session's
    loci, crystals, resonances) and clock readings normalised, floats to 3 decimals; the
    records of runs a fault interrupted set aside (they are the trace of the fault)."""
    text = [RUN_ID.sub(lambda m: f"<{m.group(1)} run>", line) for line in lines]
    items = [json.loads(line) for line in text]
    items = [i for i in items if not (i.get("label") == "DreamRun" and i["properties"].get("status") == "interrupted")]
    if loose:
        ids = {i["id"] for i in items if i.get("label") in loose}
        counts = Counter(i["label"] for i in items if i.get("label") in loose and i["label"].endswith("Run"))
        items = [i for i in items if i.get("id") not in ids and i.get("from") not in ids and i.get("to") not in ids]
        items = [{**i, "properties": {k: v for k, v in i["properties"].items() if k != "hits"}} for i in items]
        items += [{"type": "count", "label": label, "properties": {"n": n}} for label, n in sorted(counts.items())]
    made = {i["id"]: i for i in items if i.get("type") == "node" and MADE_ID.fullmatch(i["id"])}
    content = {k: json.dumps([i["label"], _steady(i["properties"])], sort_keys=True) for k, i in made.items()}
    names = {k: f"<{made[k]['label']} {n}>" for n, k in enumerate(sorted(made, key=lambda k: (content[k], k)))}
    out = []
    for item in items:
        item["properties"] = _steady(item.get("properties", {}))
        line = json.dumps(item, sort_keys=True)
        out.append(MADE_ID.sub(lambda m: names.get(m.group(0), m.group(0)), line))
    return sorted(out)


def _steady(value: Any) -> Any:
    """``value`` without the clock's readings (``*_at``, ``*_ms``, timings), JSON text included."""
    if isinstance(value, dict):
        return {k: _steady(v) for k, v in value.items() if not k.endswith(("_at", "_ms")) and k not in VOLATILE}
    if isinstance(value, list):
        return [_steady(v) for v in value]
    if isinstance(value, float):
        return round(value, 3)
    if isinstance(value, str) and value[:1] in "[{":
        try:
            return _steady(json.loads(value))
        except ValueError:
            return value
    return value


def half_written(store: GraphStore, mind: str) -> dict[str, int]:
    """The counts of ``stats/count_half_written`` that are not 0."""
    row = store.read("stats/count_half_written", mind=mind)[0]
    return {k: v for k, v in row.items() if v}


def settings(server: Server) -> Settings:
    """The throwaway server's settings with the CLI's embedder (the env fixture's)."""
    return Settings.from_env({**server.env, "GRAPHMIND_EMBEDDER": "hashing"})


def opened(server: Server, name: str) -> Mind:
    return Mind(name, open_store(settings(server)), settings(server))


def new_mind(server: Server, setup: Callable[[Mind], object]) -> str:
    with closing(opened(server, f"test-kill-{uuid.uuid4().hex[:10]}")) as m:
        setup(m)
        return m.name


def export(server: Server, name: str) -> list[str]:
    with closing(opened(server, name)) as m:
        return list(m.export_jsonl())


_BASELINES: dict[tuple[str, ...], list[str]] = {}


def baseline(server: Server, capsys: pytest.CaptureFixture[str], fault: Fault) -> list[str]:
    """The canonical export of an undisturbed run of the fault's command (once per command)."""
    key = (fault.setup.__name__, *fault.command("<mind>"))
    if key not in _BASELINES:
        name = new_mind(server, fault.setup)
        code, _, err = cli(capsys, *fault.command(name))
        assert code == 0, err
        _BASELINES[key] = canonical(export(server, name), fault.loose)
    return _BASELINES[key]


# -- the suite --------------------------------------------------------------------------------


@pytest.mark.parametrize("fault", FAULTS, ids=[f.name for f in FAULTS])
def test_a_neo4j_kill_fails_cleanly_leaves_nothing_half_written_and_a_rerun_equals_an_undisturbed_run(
    env: Server, capsys: pytest.CaptureFixture[str], fault: Fault
) -> None:
    server = env
    server.up()
    expected = baseline(server, capsys, fault)
    name = new_mind(server, fault.setup)

    with armed(server, fault.at) as fired:
        code, _, err = cli(capsys, *fault.command(name))
    assert fired, f"the command ended before reaching {fault.at}: {err}"
    assert code != 0
    assert re.search(r"Neo4j is not reachable|interrupted|could not be published", one_sentence(err))

    code, _, err = cli(capsys, "neo4j", "start")
    assert code == 0, err
    with closing(open_store(server.settings)) as store:
        assert half_written(store, name) == {}
        runs = [r["props"]["status"] for r in store.read("dream/list_runs", mind=name)]
        assert set(runs) <= {"interrupted"}  # a killed dream reads interrupted, never running

    with closing(opened(server, name)) as m:
        again = fault.resume(m) if fault.resume else fault.command(name)
    code, _, err = cli(capsys, *again)
    assert code == 0, err
    with closing(open_store(server.settings)) as store:
        assert half_written(store, name) == {}
    got = canonical(export(server, name), fault.loose)
    assert got == expected, _diff(got, expected)


def _diff(got: list[str], expected: list[str]) -> str:
    """The lines only one side has; for a node both have, the properties that differ."""
    extra, missing = sorted(set(got) - set(expected)), sorted(set(expected) - set(got))
    before = {item.get("id"): item for item in map(json.loads, missing)}
    out = []
    for line in extra:
        item = json.loads(line)
        old = before.pop(item.get("id"), None) if item.get("id") else None
        if old is None:
            out.append(f"+ {line[:400]}")
            continue
        keys = sorted(
            k
            for k in {*item["properties"], *old["properties"]}
            if item["properties"].get(k) != old["properties"].get(k)
        )
        out += [f"~ {item['id']}.{k}{_where(item['properties'].get(k), old['properties'].get(k))}" for k in keys]
    return "\n".join(out + [f"- {json.dumps(item)[:400]}" for item in before.values()])


def _where(a: Any, b: Any, path: str = "") -> str:
    """The first place two values differ, and the values there."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted({*a, *b}):
            if a.get(k) != b.get(k):
                return _where(a.get(k), b.get(k), f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _where(x, y, f"{path}[{i}]")
    return f"{path}: {str(a)[:200]} != {str(b)[:200]}"


def test_the_canonical_export_tells_a_different_graph(env: Server, capsys: pytest.CaptureFixture[str]) -> None:
    """The comparison can fail: one pattern fewer, or a pattern's members changed, is a
    different graph; two undisturbed runs are the same."""
    server = env
    server.up()
    fault = next(f for f in FAULTS if f.setup is _dream)
    expected = baseline(server, capsys, fault)
    name = new_mind(server, fault.setup)
    assert cli(capsys, *fault.command(name))[0] == 0
    lines = export(server, name)
    assert canonical(lines) == expected
    pattern = next(i for i, line in enumerate(lines) if '"label": "Pattern"' in line)
    assert canonical(lines[:pattern] + lines[pattern + 1 :]) != expected
    exemplifies = next(i for i, line in enumerate(lines) if '"rel": "EXEMPLIFIES"' in line)
    assert canonical(lines[:exemplifies] + lines[exemplifies + 1 :]) != expected


def test_the_half_written_check_finds_what_a_torn_write_leaves(env: Server, tmp_path: Path) -> None:
    """The structure check can fail: an abstraction over no pattern, a dream run still
    running, a residue without its step's loci and a thread merged into nothing are counted."""
    server = env
    server.up()
    torn: list[dict[str, Any] | str] = [
        node("Abstraction", "abstraction-torn", name="a level over nothing", level=2, status="active"),
        node("DreamRun", "dream-torn", status="running"),
        node("Residue", "residue-torn", connection="a step whose loci were never written"),
        node("Thread", "thread-torn", title="merged into nothing", status="merged"),
    ]
    with closing(opened(server, f"test-kill-{uuid.uuid4().hex[:10]}")) as m:
        m.import_jsonl(write_jsonl(tmp_path / "torn.jsonl", torn))
        found = half_written(m.store, m.name)
    assert found == {
        "abstractions_without_members": 1,
        "running_dream_runs": 1,
        "orphan_residues": 1,
        "merged_threads_without_target": 1,
    }


def test_a_merge_run_again_after_a_lost_answer_returns_the_same_thread(
    env: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    """A user who cannot tell whether a killed ``threads merge`` committed runs it again: the
    merge already made is returned (the merged thread's id comes from the pair), not refused."""
    server = env
    server.up()
    name = new_mind(server, _demo)
    merge = FAULTS[-1].command(name) + ["--json"]
    first, second = cli(capsys, *merge), cli(capsys, *merge)
    assert first[0] == 0 and second[0] == 0, second[2]
    assert json.loads(first[1])["id"] == json.loads(second[1])["id"]
    lines = export(server, name)
    assert sum('"label": "Thread"' in line and '"status": "active"' in line for line in lines) == 1
