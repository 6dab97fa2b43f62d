"""Wander sessions on the real Neo4j (issue 7, first step): CRUD, the status machine, and a
delete that cascades to the session's own loci, residues, warm memory and trace only."""

from __future__ import annotations

import pytest

from graphmind.errors import NotFoundError, ValidationError
from tests.integration.helpers import write_jsonl


def test_create_get_list_update_with_the_specs_defaults(mind):
    sessions = mind.wander_sessions
    s = sessions.create("constraint propagation", attractor="search", fence_concepts=["sudoku"])
    assert (
        s.status,
        s.max_drift_distance,
        s.max_steps,
        s.cloud_budget_cents,
        s.temperature,
        s.human_checkpoint_frequency,
    ) == ("active", 0.8, 1000, 500, 0.7, 50)
    assert sessions.get(s.id).attractor == "search" and sessions.get(s.id).created_at is not None
    other = sessions.create("emergence")
    assert {x.id for x in sessions.list()} == {s.id, other.id}
    assert sessions.update(s.id, temperature=0.3, allowed_domains=["math"]).temperature == 0.3
    assert sessions.get(s.id).allowed_domains == ["math"] and sessions.get(s.id).fence_concepts == ["sudoku"]
    with pytest.raises(ValidationError, match="temperature"):
        sessions.update(s.id, temperature=-1)
    with pytest.raises(ValidationError, match="status"):
        sessions.update(s.id, status="completed")
    with pytest.raises(NotFoundError):
        sessions.get("nope")


def test_the_status_machine_on_the_graph(mind):
    sessions = mind.wander_sessions
    s = sessions.create("analogy")
    assert sessions.set_status(s.id, "paused", reason="human checkpoint").paused_reason == "human checkpoint"
    assert [x.id for x in sessions.list(status="paused")] == [s.id]
    assert sessions.set_status(s.id, "active").status == "active"
    assert sessions.set_status(s.id, "completed").completed_at is not None
    with pytest.raises(ValidationError, match="a completed session cannot become active"):
        sessions.set_status(s.id, "active")


def test_delete_cascades_to_its_own_material_only(mind, tmp_path):
    sessions = mind.wander_sessions
    s = sessions.create("bridges")
    keep = sessions.create("other")
    lines = [
        {"type": "node", "label": "Locus", "id": "l1", "properties": {"concept": "graphs", "session_id": s.id}},
        {"type": "node", "label": "Locus", "id": "l2", "properties": {"concept": "trees", "session_id": s.id}},
        {"type": "node", "label": "Locus", "id": "mine", "properties": {"concept": "the mind's own pattern"}},
        {"type": "node", "label": "Residue", "id": "r1", "properties": {"session_id": s.id, "connection": "x"}},
        {
            "type": "node",
            "label": "WarmMemory",
            "id": "w1",
            "properties": {"session_id": s.id, "cluster_type": "summary", "content": "y"},
        },
        {"type": "node", "label": "Residue", "id": "r2", "properties": {"session_id": keep.id, "connection": "z"}},
        {"type": "node", "label": "Resonance", "id": "res", "properties": {"themes": ["structure"]}},
        {"type": "node", "label": "Crystal", "id": "c1", "properties": {"insight": "trees are graphs"}},
        {"type": "edge", "rel": "STEP", "from": "mine", "to": "l1", "properties": {"session": s.id, "step_number": 1}},
        {
            "type": "edge",
            "rel": "STEP",
            "from": "mine",
            "to": "l2",
            "properties": {"session": keep.id, "step_number": 1},
        },
        {"type": "edge", "rel": "EVIDENCED_BY", "from": "c1", "to": "res", "properties": {}},
    ]
    mind.import_jsonl(write_jsonl(tmp_path / "w.jsonl", lines))
    assert sessions.delete(s.id) == {"traces": 1, "removed": 4}
    labels = mind.stats().labels
    assert labels.get("Locus") == 1 and labels.get("Residue") == 1 and "WarmMemory" not in labels
    assert labels["Resonance"] == 1 and labels["Crystal"] == 1 and labels["WanderSession"] == 1
    assert mind.stats().relationships == {"EVIDENCED_BY": 1}  # both STEP edges touched its loci
    with pytest.raises(NotFoundError):
        sessions.delete(s.id)


def test_resonances_are_matched_reinforced_confirmed_and_fade(mind, tmp_path):
    from datetime import UTC, datetime, timedelta

    from graphmind.wander.events import EventBus

    bus, seen = EventBus(tmp_path / "events.jsonl"), []
    bus.subscribe("wander.resonance.*", lambda e: seen.append(e.subject))
    resonances = mind.resonances(bus)
    day0 = datetime(2026, 1, 1, tzinfo=UTC)
    first = resonances.observe(["constraint propagation", "search"], session_id="s1", now=day0)
    again = resonances.observe(["propagating constraints", "searching"], session_id="s2", now=day0 + timedelta(days=1))
    third = resonances.observe(["constraint propagation and search"], now=day0 + timedelta(days=2))
    assert first.new and not again.new and again.id == first.id == third.id  # across sessions
    assert (again.occurrences, round(again.strength, 3)) == (2, 1.9)
    assert third.status == "confirmed"
    other = resonances.observe(["grief", "family dinner"], now=day0 + timedelta(days=2))
    assert other.new and other.id != first.id
    assert seen == [
        "wander.resonance.detected",
        "wander.resonance.strengthened",
        "wander.resonance.strengthened",
        "wander.resonance.confirmed",
        "wander.resonance.detected",
    ]
    late = resonances.observe(["constraint propagation", "search"], now=day0 + timedelta(days=60))
    assert late.new and late.id not in (first.id, other.id)  # the old ones faded (0.9^58): a new candidate
    assert mind.get(first.id).status == "invalidated" and mind.get(other.id).status == "invalidated"


def _evidence(mind, tmp_path):
    mind.import_jsonl(
        write_jsonl(
            tmp_path / "c.jsonl",
            [
                {
                    "type": "node",
                    "label": "Locus",
                    "id": "loc",
                    "properties": {"concept": "constraint propagation", "domains": ["puzzles"]},
                },
                {
                    "type": "node",
                    "label": "Residue",
                    "id": "r1",
                    "properties": {
                        "connection": "constraint propagation prunes the search before any guess",
                        "possibility": "propagate constraints before you search",
                        "themes": ["constraint propagation"],
                        "actionability": 0.8,
                    },
                },
                {
                    "type": "node",
                    "label": "Residue",
                    "id": "r2",
                    "properties": {
                        "connection": "propagating constraints first makes the search small",
                        "possibility": "propagate constraints before searching",
                        "themes": ["search"],
                        "actionability": 0.6,
                    },
                },
                {
                    "type": "node",
                    "label": "Strategy_Pattern",
                    "id": "sp",
                    "properties": {"approach": "propagate constraints before any search", "success_rate": 0.9},
                },
                {
                    "type": "node",
                    "label": "Experience",
                    "id": "ex",
                    "properties": {
                        "description": "Propagating constraints first left only two cells to search.",
                        "outcome": "success",
                    },
                },
            ],
        )
    )
    from graphmind.prompts.wander import LocusItem, ResidueItem, ResonanceItem

    locus = LocusItem(id="loc", concept="constraint propagation", domains=["puzzles"])
    residues = [
        ResidueItem(
            id="r1",
            connection="constraint propagation prunes the search before any guess",
            possibility="propagate constraints before you search",
            themes=["constraint propagation"],
            actionability=0.8,
        ),
        ResidueItem(
            id="r2",
            connection="propagating constraints first makes the search small",
            possibility="propagate constraints before searching",
            themes=["search"],
            actionability=0.6,
        ),
    ]
    return (locus, [ResonanceItem(id="res", themes=["constraint propagation", "search"], occurrences=3)], residues)


def _memories():
    from graphmind.prompts._models import MemoryItem

    return [
        MemoryItem(id="sp", label="Strategy_Pattern", text="propagate constraints before any search"),
        MemoryItem(id="ex", label="Experience", text="Propagating constraints first left only two cells to search."),
    ]


def test_a_crystal_is_validated_stored_with_its_evidence_and_approved(mind, tmp_path, cli_env, capsys):
    from graphmind.wander.events import EventBus
    from tests.integration.helpers import run_cli

    bus, seen = EventBus(), []
    bus.subscribe("wander.crystal.*", lambda e: seen.append(e.subject))
    locus, resonances, residues = _evidence(mind, tmp_path)
    alone = mind.crystals(bus).attempt(locus, resonances, residues, session_id="s1")
    assert not alone.formed  # residues only echo the walk: evidence is memories (issue 22)
    assert not mind.crystals(bus).attempt(locus, resonances, residues, _memories()[:1], session_id="s1").formed
    result = mind.crystals(bus).attempt(locus, resonances, residues, _memories(), session_id="s1")
    assert result.formed and result.status == "active" and set(result.evidence) == {"sp", "ex"}
    crystal = mind.get(result.crystal_id)
    assert crystal.validated_by == "rules (offline)" and crystal.source_locus_id == "loc"
    assert mind.stats().relationships["EVIDENCED_BY"] == 2  # memories only: no residue, no locus
    again = mind.crystals(bus).attempt(locus, resonances, residues, _memories(), session_id="s2")
    assert (again.crystal_id, again.status) == (result.crystal_id, "merged")  # a duplicate merges
    assert mind.get(result.crystal_id).occurrences == 2 and mind.stats().labels["Crystal"] == 1
    assert seen == ["wander.crystal.formed", "wander.crystal.validated"]
    code, out, err = run_cli(capsys, "wander", "approve", result.crystal_id, "--mind", mind.name, "--by", "ada")
    assert code == 0, err
    approved = mind.get(result.crystal_id)
    assert approved.human_approved and approved.human_approved_by == "ada" and approved.human_approved_at
    mind.crystals().set_status(result.crystal_id, "acted_upon")
    with pytest.raises(ValidationError, match="a crystal that is acted_upon cannot become active"):
        mind.crystals().set_status(result.crystal_id, "active")
    code, _, err = run_cli(capsys, "wander", "approve", "nope", "--mind", mind.name, "--by", "ada")
    assert code == 2 and "no crystal" in err


def test_no_evidence_no_crystal(mind, tmp_path):
    from graphmind.prompts.wander import LocusItem, ResonanceItem

    result = mind.crystals().attempt(
        LocusItem(id="x", concept="tides"), [ResonanceItem(id="res", themes=["gravity"])], []
    )
    assert not result.formed and "Crystal" not in mind.stats().labels


def test_hot_memory_beyond_its_limit_is_compressed_to_warm(mind, tmp_path):
    from datetime import UTC, datetime

    from graphmind.wander.tiers import compress_to_warm

    loci = [
        {
            "type": "node",
            "label": "Locus",
            "id": f"l{i}",
            "properties": {
                "concept": f"concept {i}",
                "session_id": "s1",
                "domains": ["math" if i % 2 else "art"],
                "interestingness": 0.1 if i == 0 else 0.7,
                "last_visited": f"2026-01-01T00:{i:02d}:00+00:00",
            },
        }
        for i in range(6)
    ]
    mind.import_jsonl(write_jsonl(tmp_path / "hot.jsonl", loci))
    assert compress_to_warm(mind.store, mind.name, "s1", limit=3, now=datetime(2026, 1, 2, tzinfo=UTC)) == 3
    hot = sorted(r["id"] for r in mind.store.read("wander/list_hot_loci", mind=mind.name, session_id="s1"))
    assert hot == ["l3", "l4", "l5"]  # the newest three stay hot
    assert mind.get("l0").tier == "warm"
    labels = mind.stats().labels
    assert labels["WarmMemory"] == 4  # art, math, the failed path (l0), the summary
    assert compress_to_warm(mind.store, mind.name, "s1", limit=3) == 0
