"""Hits are counted whenever a memory is loaded into context (issue 22, item 5): by recall, a
rumination, a digest and a wander step, so the forgotten digest never offers what was read.
Each through the Python API and the CLI, on the real Neo4j."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, time, timedelta

import pytest

from graphmind.digest import DigestParams
from graphmind.mind import Mind
from tests.integration.helpers import edge, node, run_cli, write_jsonl

pytestmark = pytest.mark.integration

NOON = datetime.combine(datetime.now(UTC).date(), time(12), UTC)
TIDES = [  # a tide-pool naturalist's topic notes, all old enough to be forgotten
    ("tides", "Spring tides come with the full and the new moon"),
    ("tides", "Neap tides leave the upper pools cut off for days"),
    ("tides", "A falling barometer raises the water above the tide table"),
    ("pools", "Anemones close when the pool warms in the afternoon sun"),
    ("pools", "Hermit crabs trade shells at low water in the crowded pools"),
    ("pools", "Periwinkles graze the algae film on the pool rocks at night"),
    ("birds", "Oystercatchers feed on mussels exposed by the spring tides"),
    ("birds", "Turnstones flip weed on the strandline after a storm"),
]


_CONVERSATION = (
    node(
        "Conversation_Memory",
        "talk-1",
        topic="spring tide survey",
        participants=["Maren"],
        key_points=["the spring tide survey starts at dawn"],
        outcome="agreed to meet at the slipway",
        timestamp="2026-09-01T06:00:00Z",
    ),
    edge("RELATES_TO", "talk-1", "te0"),
)


def _entries(tmp_path, *extra):
    old = (date.today() - timedelta(days=40)).isoformat()
    return write_jsonl(
        tmp_path / "tides.jsonl",
        [node("TopicEntry", f"te{i}", topic=topic, text=text, date=old) for i, (topic, text) in enumerate(TIDES)]
        + list(extra),
    )


def _hits(mind: Mind) -> dict[str, int]:
    return {f"te{i}": mind.get(f"te{i}").hits or 0 for i in range(len(TIDES))}


def _forgotten(mind: Mind) -> set[str]:
    return {f.entry.id for f in mind.digest(DigestParams(n=1, limit=50), rng_seed=0, now=NOON).forgotten}


def test_a_wander_step_counts_a_hit_on_the_memories_it_dwells_with(mind, tmp_path):
    mind.import_jsonl(_entries(tmp_path))
    assert _forgotten(mind) == {f"te{i}" for i in range(len(TIDES))} and set(_hits(mind).values()) == {1}
    before = _hits(mind)  # the digest just read each of them once
    handle = mind.wander("the moon pulls the tides", steps=4, rng_seed=3, human_checkpoint_frequency=0)
    assert handle.last_run.steps_completed == 4
    read = {i for i, h in _hits(mind).items() if h > before[i]}
    assert read and all(_hits(mind)[i] - before[i] <= 2 * 4 for i in read)  # at most two loci a step


def test_wander_reads_leave_the_forgotten_digest(mind, tmp_path):
    mind.import_jsonl(_entries(tmp_path))
    mind.wander("the moon pulls the tides", steps=4, rng_seed=3, human_checkpoint_frequency=0)
    read = {i for i, h in _hits(mind).items() if h}
    assert read and not read & _forgotten(mind)


def test_cli_wander_then_digest_never_shows_what_the_walk_read(cli_env, cli_mind, capsys, store, settings, tmp_path):
    Mind(cli_mind, store, settings).import_jsonl(_entries(tmp_path))
    code, _, err = run_cli(
        capsys,
        "wander",
        "run",
        "--mind",
        cli_mind,
        "--seed",
        "the moon pulls the tides",
        "--steps",
        "4",
        "--rng-seed",
        "3",
        "--checkpoint-every",
        "0",
    )
    assert code == 0, err
    with Mind(cli_mind, store, settings) as m:
        read = {i for i, h in _hits(m).items() if h}
    assert read
    code, out, err = run_cli(capsys, "digest", "--mind", cli_mind, "--limit", "50", "--json")
    assert code == 0, err
    assert not read & {e["id"] for e in json.loads(out)["forgotten"]["entries"]}


def test_a_rumination_counts_a_hit_on_every_memory_it_loaded(mind, tmp_path):
    mind.import_jsonl(_entries(tmp_path, *_CONVERSATION))
    result = mind.ruminate("Maren asks whether the spring tide survey still starts at dawn", sender="Maren")
    loaded = {i for s in result.steps for i in s.found_ids} | {i for s in result.context.sections for i in s.node_ids}
    assert {"talk-1", "te0"} <= loaded  # te0 followed from the conversation, read though not cited
    for memory_id in loaded:
        assert mind.get(memory_id).hits == 1, memory_id
    assert "te0" not in _forgotten(mind)


def test_cli_ruminate_then_digest_never_shows_what_the_rumination_read(
    cli_env, cli_mind, capsys, store, settings, tmp_path
):
    with Mind(cli_mind, store, settings) as m:
        m.import_jsonl(_entries(tmp_path, *_CONVERSATION))
    code, _, err = run_cli(
        capsys,
        "ruminate",
        "Maren asks whether the spring tide survey still starts at dawn",
        "--mind",
        cli_mind,
        "--sender",
        "Maren",
    )
    assert code == 0, err
    with Mind(cli_mind, store, settings) as m:
        assert m.get("te0").hits == 1 and m.get("talk-1").hits == 1
    code, out, err = run_cli(capsys, "digest", "--mind", cli_mind, "--limit", "50", "--json")
    assert code == 0, err
    assert "te0" not in {e["id"] for e in json.loads(out)["forgotten"]["entries"]}


def test_cli_recall_counts_a_hit_and_the_digest_then_skips_the_entry(
    cli_env, cli_mind, capsys, store, settings, tmp_path
):
    Mind(cli_mind, store, settings).import_jsonl(_entries(tmp_path))
    code, out, err = run_cli(capsys, "recall", "hermit crabs trade shells", "--mind", cli_mind, "-k", "1", "--json")
    assert code == 0, err
    code, out, err = run_cli(capsys, "digest", "--mind", cli_mind, "--limit", "50", "--json")
    assert code == 0, err
    assert "te4" not in {e["id"] for e in json.loads(out)["forgotten"]["entries"]}


def test_a_forced_crystallization_counts_a_hit_on_the_memories_it_weighs(mind, tmp_path):
    mind.import_jsonl(_entries(tmp_path))
    handle = mind.wander("spring tides come with the full moon", rng_seed=1, human_checkpoint_frequency=0)
    before = _hits(mind)
    handle.crystallize()
    assert any(h > before[i] for i, h in _hits(mind).items())  # the seed's memories were in its context
