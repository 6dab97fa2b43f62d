"""Wander on minds of any shape (issue 22, items 1 and 2) on the real Neo4j: every memory label
is a locus (experiences too), never a crystal or a working node; a requested run on a
consolidated mind runs its steps; crystals are evidenced by memories only, never templates
nor duplicates, and never become loci."""

from __future__ import annotations

import json

import pytest

from graphmind.models import RECALLED_LABELS
from graphmind.wander import crystal_rules
from tests.integration.helpers import DEMO, run_cli
from tests.integration.wander_minds import (
    CONSOLIDATED_SEED,
    SPARSE_SEED,
    build_consolidated,
    consolidated_experiences,
    sparse_file,
)


@pytest.fixture
def consolidated(mind):
    build_consolidated(mind)
    return mind


def _crystals(mind) -> list[dict]:
    return mind.store.read("wander/list_crystals", mind=mind.name, session_id=None)


def _evidence_labels(mind, crystal_id: str) -> list[str]:
    rows = mind.store.read("memory/get_node", mind=mind.name, id=crystal_id)
    assert rows and rows[0]["label"] == "Crystal"
    crystal = next(c for c in _crystals(mind) if c["id"] == crystal_id)
    return [mind.store.read("memory/get_node", mind=mind.name, id=e)[0]["label"] for e in crystal["evidence"]]


def test_experiences_are_loci_and_a_consolidated_run_runs_its_steps(consolidated):
    mind = consolidated
    handle = mind.wander(CONSOLIDATED_SEED, rng_seed=3, human_checkpoint_frequency=50)
    rows = mind.store.read("wander/list_memory_sources", mind=mind.name, labels=list(RECALLED_LABELS))
    labels = {r["label"] for r in rows}
    assert "Experience" in labels and "Pattern" in labels
    report = handle.run(60)
    assert (report.steps_completed, report.stopped_reason) == (50, "human checkpoint"), report.stopped_reason
    assert sum(s.returned for s in report.steps) < 10
    handle.resume()
    assert handle.run(10).steps_completed == 10
    visited = {r["to_id"] for r in handle.trace()}
    assert len(visited) > 10
    # crystals: memories only as evidence, no template, no duplicate, never a locus
    crystals = [c for c in _crystals(mind) if c["props"].get("status") != "invalidated"]
    for c in crystals:
        assert set(_evidence_labels(mind, c["id"])) <= set(RECALLED_LABELS)
        assert not crystal_rules.is_template(c["props"]["insight"])
    for i, c in enumerate(crystals):
        others = [
            {"id": o["id"], "insight": o["props"]["insight"], "evidence": o["evidence"]} for o in crystals[i + 1 :]
        ]
        assert crystal_rules.duplicate_of(c["props"]["insight"], c["evidence"], others) is None
    assert not [
        c
        for c in mind.store.read("wander/list_memory_sources", mind=mind.name, labels=list(RECALLED_LABELS))
        if c["label"] == "Crystal"
    ]
    another = mind.wander(CONSOLIDATED_SEED, rng_seed=4, human_checkpoint_frequency=0)
    another.run(5)
    crystal_ids = {c["id"] for c in _crystals(mind)}
    assert not {r["to_id"] for r in another.trace()} & {f"locus-{i}" for i in crystal_ids}


def test_a_stall_says_so_and_a_fence_hit_is_counted_in_a_row(mind, tmp_path):
    mind.import_jsonl(sparse_file(tmp_path))
    handle = mind.wander(SPARSE_SEED, rng_seed=1, human_checkpoint_frequency=0)
    report = handle.run(30)
    assert report.steps_completed == 30 or report.stopped_reason.startswith("circuit breaker"), report.stopped_reason
    fenced = mind.wander(SPARSE_SEED, rng_seed=1, allowed_domains=["astronomy"], human_checkpoint_frequency=0)
    report = fenced.run(20)
    assert report.stopped_reason == "circuit breaker: 5 fence hits in a row" and report.steps_completed == 5


def test_a_crystal_never_evidences_a_crystal_nor_a_locus_of_one(mind):
    mind.import_jsonl(DEMO)
    first = mind.wander("race conditions in async code", rng_seed=5, human_checkpoint_frequency=0)
    first.run(60)
    second = mind.wander("retry storms after an outage", rng_seed=6, human_checkpoint_frequency=0)
    second.run(60)
    crystals = _crystals(mind)
    assert crystals
    for c in crystals:
        labels = _evidence_labels(mind, c["id"])
        assert len(labels) >= 2 and set(labels) <= set(RECALLED_LABELS), labels
    visited = {r["to_id"] for h in (first, second) for r in h.trace()}
    assert not visited & {f"locus-{c['id']}" for c in crystals}  # crystals are not loci


def test_cli_wander_run_on_a_consolidated_mind(capsys, cli_env, cli_mind, tmp_path):
    path = tmp_path / "callouts.jsonl"
    path.write_text(
        "".join(
            json.dumps({"type": "node", "label": "Experience", "id": e.pop("id"), "properties": e}) + "\n"
            for e in consolidated_experiences()
        )
    )
    code, _, err = run_cli(capsys, "import", str(path), "--mind", cli_mind)
    assert code == 0, err
    code, out, err = run_cli(
        capsys,
        "wander",
        "run",
        "--mind",
        cli_mind,
        "--seed",
        CONSOLIDATED_SEED,
        "--steps",
        "30",
        "--rng-seed",
        "5",
        "--json",
    )
    assert code == 0, err
    report = json.loads(out)
    assert report["steps_completed"] == 30 and report["stopped_reason"] == "steps done"


def test_demo_mind_crystals_hold(mind):
    mind.import_jsonl(DEMO)
    handle = mind.wander("race conditions in async code", rng_seed=42, human_checkpoint_frequency=0)
    handle.run(60)
    for c in _crystals(mind):
        assert not crystal_rules.is_template(c["props"]["insight"])
        assert set(_evidence_labels(mind, c["id"])) <= set(RECALLED_LABELS)
