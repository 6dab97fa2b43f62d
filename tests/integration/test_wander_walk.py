"""The wander step loop on the real Neo4j (issue 7): idea space from the mind's memory, the
same seed walking the same walk, the fence never crossed, contiguous step numbers, a crash
mid-step leaving nothing, checkpoints, the circuit breaker, intervention and events."""

from __future__ import annotations

import numpy as np
import pytest

from graphmind.errors import ValidationError
from graphmind.models import RECALLED_LABELS
from graphmind.wander.events import Event
from tests.integration.helpers import DEMO, run_cli

SEED = "race conditions in async code"


def walk_of(handle) -> list[tuple[int, str, str]]:
    return [(r["step_number"], r["to_concept"], r["trace"]["strategy"]) for r in handle.trace()]


def test_memory_loci_stand_for_the_minds_memories(mind):
    mind.import_jsonl(DEMO)
    handle = mind.wander(SEED, rng_seed=1)
    rows = mind.store.read("wander/list_memory_sources", mind=mind.name, labels=list(RECALLED_LABELS))
    topic = next(r for r in rows if r["label"] == "TopicEntry")
    assert topic["locus_id"] == f"locus-{topic['id']}"
    experience = next(r for r in rows if r["label"] == "Experience")  # every memory label is a locus
    assert experience["locus_id"] == f"locus-{experience['id']}"
    seed = mind.store.read("wander/get_locus", mind=mind.name, id=handle.session.seed_locus_id)[0]
    assert seed["props"]["source_type"] == "SEED" and seed["refers_to"]  # grounded in its nearest memory


def test_the_same_seed_walks_the_same_walk(mind, other_mind):
    walks = []
    for m in (mind, other_mind):
        m.import_jsonl(DEMO)
        handle = m.wander(SEED, steps=80, rng_seed=42, human_checkpoint_frequency=0)
        assert handle.last_run.steps_completed == 80
        walks.append(walk_of(handle))
    assert walks[0] == walks[1]
    assert [n for n, _, _ in walks[0]] == list(range(1, 81))  # unique and contiguous
    assert len({c for _, c, _ in walks[0]}) > 5  # it wanders, it does not sit still
    another = other_mind.wander(SEED, steps=25, rng_seed=7, human_checkpoint_frequency=0)
    assert walk_of(another) != walks[1]


def test_the_fence_is_never_crossed(mind):
    mind.import_jsonl(DEMO)
    handle = mind.wander(
        SEED, rng_seed=3, max_drift_distance=0.55, forbidden_domains=["emotional state"], human_checkpoint_frequency=0
    )
    handle.fence("customer emails", "exclude")
    handle.run(40)
    session = handle.session
    anchors = mind.embedder.embed([SEED])
    excluded = mind.embedder.embed(["customer emails"])
    visited = {r["to_id"] for r in handle.trace()}
    assert visited
    for locus_id in visited:
        row = mind.store.read("wander/get_locus", mind=mind.name, id=locus_id)[0]
        vector = np.asarray(row["embedding"], dtype=np.float32)
        # stored vectors are rounded to 6 decimals: a cosine may differ from a fresh one by ~1e-5
        assert 1 - float(np.max(anchors @ vector)) <= session.max_drift_distance + 1e-4
        assert float(np.max(excluded @ vector)) < 0.6 + 1e-4
        assert "emotional state" not in (row["props"].get("domains") or [])


def test_a_crash_mid_step_leaves_the_session_at_the_step_before(mind):
    mind.import_jsonl(DEMO)
    calls = {"n": 0}

    def crash_on_third(_: str) -> None:
        calls["n"] += 1
        if calls["n"] == 3:
            raise RuntimeError("the process died here")

    handle = mind.wander(SEED, rng_seed=5, before_commit=crash_on_third, human_checkpoint_frequency=0)
    residues_before = _count(mind, "Residue")
    with pytest.raises(RuntimeError):
        handle.run(5)
    assert handle.session.steps_completed == 2
    assert [r["step_number"] for r in handle.trace()] == [1, 2]
    assert _count(mind, "Residue") == residues_before + 2
    resumed = mind.wander(session_id=handle.id)
    resumed.run(3)
    assert [r["step_number"] for r in resumed.trace()] == [1, 2, 3, 4, 5]


def test_checkpoint_pauses_until_resumed(mind):
    mind.import_jsonl(DEMO)
    handle = mind.wander(SEED, rng_seed=2, human_checkpoint_frequency=4)
    report = handle.run(10)
    assert (report.steps_completed, report.stopped_reason, report.status) == (4, "human checkpoint", "paused")
    assert handle.run(3).stopped_reason == "the session is paused"
    handle.resume()
    assert handle.run(3).steps_completed == 3


def test_the_circuit_breaker_pauses_a_walk_stuck_at_the_fence(mind):
    mind.import_jsonl(DEMO)
    seen: list[Event] = []
    mind.events.subscribe("wander.circuit.*", seen.append)
    handle = mind.wander(SEED, rng_seed=2, allowed_domains=["astronomy"], human_checkpoint_frequency=0)
    report = handle.run(20)
    assert report.stopped_reason == "circuit breaker: 5 fence hits in a row" and report.status == "paused"
    assert all(s.fence_hit and s.strategy == "return_to_seed" for s in report.steps)
    assert "circuit breaker" in handle.session.paused_reason and [e.subject for e in seen] == ["wander.circuit.tripped"]


def test_inject_fence_and_forced_crystallization(mind):
    mind.import_jsonl(DEMO)
    handle = mind.wander(SEED, rng_seed=4, human_checkpoint_frequency=0)
    locus = handle.inject("idempotency keys for payouts")
    assert handle.step().to_locus["id"] == locus
    assert handle.session.forced_locus_id is None  # a forced visit happens once
    assert handle.fence("settlement batches", "include").fence_concepts == ["settlement batches"]
    assert handle.fence("settlement batches", "exclude").fence_concepts == []
    with pytest.raises(ValidationError):
        handle.fence("x", "widen")
    handle.run(12)
    result = handle.crystallize()
    if result.formed:  # the offline rules decide; either way nothing is invented
        assert set(result.evidence) <= _ids(mind)


def test_events_follow_the_steps(mind):
    mind.import_jsonl(DEMO)
    subjects: list[str] = []
    mind.events.subscribe("wander.>", lambda e: subjects.append(e.subject))
    mind.wander(SEED, steps=3, rng_seed=9)
    assert subjects[0] == "wander.session.created"
    assert subjects.count("wander.step.completed") == 3 and subjects.count("wander.step.started") == 3
    assert "wander.locus.visited" in subjects and "wander.adjacencies.found" in subjects
    assert any(s.startswith("wander.resonance.") for s in subjects)


def test_delete_keeps_the_minds_memory_loci(mind):
    mind.import_jsonl(DEMO)
    handle = mind.wander(SEED, steps=5, rng_seed=1)
    memory_loci = _count(mind, "Locus", "MEMORY")
    mind.wander_sessions.delete(handle.id)
    assert _count(mind, "Locus", "MEMORY") == memory_loci
    assert _count(mind, "Residue") == 0


def test_cli_wander_run_prints_the_design_fields(capsys, cli_env, cli_mind):
    code, _, _ = run_cli(capsys, "import", str(DEMO), "--mind", cli_mind)
    assert code == 0
    code, out, _ = run_cli(
        capsys, "wander", "run", "--mind", cli_mind, "--seed", SEED, "--steps", "4", "--rng-seed", "11", "--json"
    )
    import json

    report = json.loads(out)
    assert code == 0 and {"session_id", "steps_completed", "crystals_formed", "stopped_reason", "cost_cents"} <= set(
        report
    )
    assert report["steps_completed"] == 4
    code, out, err = run_cli(capsys, "wander", "run", "--mind", cli_mind, "--steps", "4")
    assert code == 2 and "--seed" in err
    code, _, err = run_cli(capsys, "wander", "status", "wander-nope", "--mind", cli_mind)
    assert code == 2 and err.count("\n") == 1 and "no wander session" in err


def test_cli_wander_run_logs_its_steps_with_debug_and_its_end_with_verbose(capsys, cli_env, cli_mind):
    from graphmind.cli import logs

    assert run_cli(capsys, "import", str(DEMO), "--mind", cli_mind)[0] == 0
    try:
        code, _, quiet = run_cli(capsys, "wander", "run", "--mind", cli_mind, "--seed", SEED, "--steps", "2")
        assert code == 0 and "graphmind.wander" not in quiet
        code, _, verbose = run_cli(capsys, "-v", "wander", "run", "--mind", cli_mind, "--seed", SEED, "--steps", "2")
        assert code == 0 and "graphmind.wander.wanderer: INFO: wander wander-" in verbose and "2 steps" in verbose
        assert "step 1:" not in verbose
        args = ("--log-level", "debug", "wander", "run", "--mind", cli_mind, "--seed", SEED, "--steps", "2")
        code, _, debug = run_cli(capsys, *args)
        assert code == 0 and "graphmind.wander.walker: DEBUG:" in debug and " step 2: " in debug
    finally:
        logs.configure(None)


def _count(mind, label: str, source_type: str | None = None) -> int:
    return sum(
        1
        for line in mind.export_jsonl()
        if f'"label": "{label}"' in line and (source_type is None or f'"source_type": "{source_type}"' in line)
    )


def _ids(mind) -> set[str]:
    import json

    return {json.loads(line)["id"] for line in mind.export_jsonl() if '"type": "node"' in line}


def test_the_rlm_dweller_queries_memory_through_the_sandbox(mind):
    mind.import_jsonl(DEMO)
    handle = mind.wander(SEED, steps=2, rng_seed=3, dweller="rlm", human_checkpoint_frequency=0)
    runs = handle._walker._rlm.runs  # the REPL runs of this handle's dwellings
    assert handle.last_run.steps_completed == 2 and len(runs) == 2
    assert all(r.success for r in runs)
    assert [c.name for c in runs[0].calls] == ["query_similar", "get_neighbors", "llm_query"]
    assert '"found"' in runs[0].stdout  # what the code printed went back to the model


def test_hostile_dweller_code_is_contained_and_the_step_still_dwells(mind, tmp_path, monkeypatch):
    from graphmind.llm.offline import OfflineLLM
    from graphmind.prompts.wander import DwellInput, LocusItem, RlmTurn
    from graphmind.wander.rlm import RlmDweller
    from graphmind.wander.space import IdeaSpace

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-secret")
    attacks = iter(
        [
            "import os\nos.system('touch pwned')",
            "open('pwned', 'w').write('x')",
            "print(().__class__.__bases__[0].__subclasses__())",
            "while True:\n    pass",
        ]
    )
    offline = OfflineLLM()

    def call(strong, text, fn):
        attack = next(attacks, None)
        reply = RlmTurn(text=f"Let me try this.\n```repl\n{attack}\n```") if attack and "REPL" in text else None
        return (reply or fn(offline)), "test", 0.0

    dweller = RlmDweller(mind.store, IdeaSpace(mind.store, mind.embedder, mind.name), mind.name)
    inputs = DwellInput(current=LocusItem(id="a", concept="race condition"), next=LocusItem(id="b", concept="queue"))
    out, _, _ = dweller.dwell(inputs, {"hot_memory": [], "current_locus": {"id": "a"}}, "s", False, call)
    assert out.connection  # fell back to the simple dwelling after the attacks
    assert [r.success for r in dweller.runs] == [False] * 4 and all(r.error for r in dweller.runs)
    assert not (tmp_path / "pwned").exists() and "sk-test-secret" not in "".join(r.stdout for r in dweller.runs)


def test_a_large_idea_space_samples_the_band_through_the_vector_index(mind, monkeypatch):
    from graphmind.wander import space

    monkeypatch.setattr(space, "EXACT_LIMIT", 0)  # as if the mind held more loci than an exact scan suits
    mind.import_jsonl(DEMO)
    handle = mind.wander(SEED, steps=15, rng_seed=8, human_checkpoint_frequency=0)
    assert handle.last_run.steps_completed == 15
    band = [r for r in handle.trace() if r["trace"]["strategy"] == "distance_band"]
    assert band  # the index found candidates in the band
    for row in band:
        cosine = float(row["trace"]["selection_reason"].rsplit("cosine ", 1)[1].rstrip(")"))
        assert 0.3 <= cosine <= 0.7


def test_an_empty_mind_has_nothing_to_wander_through(mind):
    report = mind.wander("anything at all", steps=5, rng_seed=1).last_run
    assert (report.steps_completed, report.stopped_reason) == (0, "the mind has no memories to wander through")
    assert _count(mind, "Crystal") == 0 and _count(mind, "Residue") == 0


def test_crystals_rest_on_the_minds_memories(mind):
    mind.import_jsonl(DEMO)
    handle = mind.wander(SEED, steps=60, rng_seed=5, human_checkpoint_frequency=0)
    memories = {
        r["id"] for r in mind.store.read("wander/list_memory_sources", mind=mind.name, labels=list(RECALLED_LABELS))
    }
    found = handle.crystals()
    assert found  # the Felix walk forms crystals offline
    for crystal in found:
        assert set(crystal["evidence"]) <= memories and len(crystal["evidence"]) >= 2, crystal  # memories only


@pytest.mark.parametrize("concept, label", [("emotions", "Emotional_State"), ("failures", "Failed_Attempt")])
def test_a_fenced_out_concept_keeps_the_walk_away_from_its_memories(mind, concept, label):
    """A one-word fence ("emotions") is far from any memory's text, but its memories' loci
    carry the domain it names: the walk must not visit them (issue 27, item 12)."""
    mind.import_jsonl(DEMO)
    free = mind.wander(SEED, steps=60, rng_seed=11, human_checkpoint_frequency=0)
    fenced = mind.wander(SEED, rng_seed=11, human_checkpoint_frequency=0)
    fenced.fence(concept, "exclude")
    fenced.run(60)

    def roles(handle) -> list[str]:
        return [
            mind.store.read("wander/get_locus", mind=mind.name, id=r["to_id"])[0]["props"].get("role")
            for r in handle.trace()
        ]

    assert label in roles(free)  # unfenced, the walk goes there
    assert fenced.session.steps_completed == 60
    assert label not in roles(fenced)


def test_cli_fence_exclude_keeps_the_walk_away(mind, cli_env, capsys):
    """The same through the CLI: wander start, fence --exclude, wander run (issue 27, item 12)."""
    import json

    mind.import_jsonl(DEMO)
    code, out, err = run_cli(
        capsys,
        "wander",
        "start",
        "--mind",
        mind.name,
        "--seed",
        SEED,
        "--rng-seed",
        "11",
        "--checkpoint-every",
        "0",
        "--json",
    )
    assert code == 0, err
    session = json.loads(out)["session_id"]
    code, out, err = run_cli(capsys, "wander", "fence", session, "emotions", "--exclude", "--mind", mind.name, "--json")
    assert code == 0 and json.loads(out)["fence_excluded"] == ["emotions"], err
    code, out, err = run_cli(
        capsys, "wander", "run", "--mind", mind.name, "--session", session, "--steps", "60", "--json"
    )
    assert code == 0, err
    roles = {
        mind.store.read("wander/get_locus", mind=mind.name, id=r["to_id"])[0]["props"].get("role")
        for r in mind.wander(session_id=session).trace()
    }
    assert roles and "Emotional_State" not in roles
