"""Crystals worth keeping (issue 22, item 2): the pure rules and the offline crystallization,
scored on the labelled set tests/data/wander_crystals (mountain rescue, bees, bread, boats)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphmind.prompts._models import MemoryItem
from graphmind.prompts.wander import CrystalCheckInput, CrystalInput, LocusItem, ResonanceItem
from graphmind.wander import crystal_rules as rules
from graphmind.wander._logic import CircuitBreaker
from graphmind.wander.offline import crystallize, validate_crystal
from graphmind.wander.space import memory_concept, memory_domains, memory_level, memory_locus_rows

DATA = Path(__file__).resolve().parents[1] / "data" / "wander_crystals"


def _rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line.strip()]


SWARM = [
    MemoryItem(
        id="e1",
        label="Experience",
        text="The north colony swarmed in May after the brood box filled; the super went on late.",
    ),
    MemoryItem(
        id="e2",
        label="Experience",
        text="A second colony swarmed once the brood box was crowded. The queen had no room.",
    ),
    MemoryItem(id="p1", label="Pattern", text="Varroa counts rise in late summer."),
]


def test_the_labelled_sets_are_judged_right_and_corruption_fails():
    pairs = _rows("pairs.jsonl")
    found = [rules.duplicate_of(p["a"], [], [{"id": "k", "insight": p["b"]}]) is not None for p in pairs]
    assert found == [p["duplicate"] for p in pairs]
    texts = _rows("templates.jsonl")
    assert [rules.is_template(t["text"]) for t in texts] == [t["template"] for t in texts]
    checks = _rows("checks.jsonl")
    assert [rules.check(c["insight"], [rules.Evidence(**e) for e in c["evidence"]]).holds for c in checks] == [
        c["holds"] for c in checks
    ]
    # corrupted labels: the same judge must disagree
    flipped = [not p["duplicate"] for p in pairs]
    assert found != flipped


def test_evidence_is_memories_only():
    items = [
        rules.Evidence("c1", "Crystal", "colonies swarm"),
        rules.Evidence("r1", "Residue", "swarm"),
        rules.Evidence("l1", "Locus", "swarm"),
        rules.Evidence("e1", "Experience", "the colony swarmed"),
    ]
    assert [e.id for e in rules.memory_evidence(items)] == ["e1"]
    # a crystal cannot be one of the two memories a crystal needs
    verdict = rules.check("The colony swarmed.", [items[0], items[3]])
    assert not verdict.holds and "two memories" in verdict.reason


def test_check_rejects_templates_unconnected_and_unsupported():
    evidence = [rules.Evidence(m.id, m.label, m.text) for m in SWARM]
    assert rules.check("Colonies swarm when the brood box is crowded.", evidence).holds
    assert not rules.check("Both swarm and brood appear in e1, e2: the brood box filled.", evidence).holds
    assert not rules.check("Both Both colonies swarm.", evidence).holds
    assert not rules.check("No shared terms between swarms and varroa in the memories given.", evidence).holds
    # every word in the evidence, but only in one memory each: nothing connects them
    assert not rules.check("Varroa counts rise in late summer.", evidence).holds
    assert not rules.check("Hornets raided the apiary at dawn.", evidence).holds


def test_confidence_reflects_the_evidence():
    evidence = [rules.Evidence(m.id, m.label, m.text) for m in SWARM]
    two_of_three = rules.check("Colonies swarm when the brood box is crowded.", evidence).confidence
    two_of_two = rules.check("Colonies swarm when the brood box is crowded.", evidence[:2]).confidence
    assert two_of_three < two_of_two <= 1.0


def test_typed_edges_connect_evidence():
    evidence = [
        rules.Evidence("a", "Failed_Attempt", "The ford crossing failed in the flood."),
        rules.Evidence("b", "Experience", "The ford was impassable after the flood."),
        rules.Evidence("c", "Constraint", "Never cross a flooded ford."),
    ]
    joined = rules.connection(evidence, [("a", "CAUSED_BY", "b"), ("a", "CAUSED_BY", "zz")])
    assert joined.edges == (("a", "CAUSED_BY", "b"),) and "ford" in joined.shared


def test_duplicates_merge_by_evidence_set_or_text():
    kept = [{"id": "k1", "insight": "Reef before the squall arrives.", "evidence": ["e1", "e2"]}]
    assert rules.duplicate_of("Something else entirely.", ["e2", "e1"], kept) == "k1"
    assert rules.duplicate_of("Reefing before the squall arrives.", ["e9"], kept) == "k1"
    assert rules.duplicate_of("The squall line showed on the radar.", ["e9"], kept) is None


def test_offline_crystallize_is_extractive_and_needs_a_connection():
    out = crystallize(
        CrystalInput(
            locus=LocusItem(id="l", concept="swarming"),
            resonances=[ResonanceItem(id="r", themes=["brood box", "swarm"])],
            memories=SWARM,
        ),
        [],
    )
    assert out.formed and set(out.evidence_ids) == {"e1", "e2"}
    texts = " ".join(m.text for m in SWARM)
    assert all(part.rstrip(".") in texts for part in out.insight.split(". "))  # extractive
    assert not rules.is_template(out.insight) and 0 < out.confidence < 1
    apart = [
        MemoryItem(id="a", label="Experience", text="The choir sang flat in the cold hall."),
        MemoryItem(id="b", label="TopicEntry", text="kiln: glazes crack when cooled too fast"),
    ]
    assert not crystallize(CrystalInput(locus=LocusItem(id="l", concept="x"), memories=apart), []).formed
    crystal = MemoryItem(id="c", label="Crystal", text="The choir sang flat in the cold hall.")
    assert not crystallize(CrystalInput(locus=LocusItem(id="l", concept="x"), memories=[apart[0], crystal]), []).formed


def test_offline_validation_uses_the_rules():
    bad = validate_crystal(
        CrystalCheckInput(insight="No shared terms between a and b in the memories given.", evidence=SWARM), []
    )
    assert not bad.holds and bad.confidence == 0.0
    good = validate_crystal(
        CrystalCheckInput(insight="Colonies swarm when the brood box is crowded.", evidence=SWARM), []
    )
    assert good.holds and 0 < good.confidence < 1


def test_the_breaker_counts_returns_in_a_row():
    breaker = CircuitBreaker()
    for _ in range(4):
        assert breaker.record(fence_hit=True) is None
    assert breaker.record() is None  # the walk moved on: not stuck
    assert [breaker.record(fence_hit=True) for _ in range(5)][-1] == "5 fence hits in a row"
    stalled = CircuitBreaker()
    outcomes = [stalled.record(fence_hit=False, returned=True) for _ in range(5)]
    assert outcomes[-1] == "stalled: 5 steps in a row found nothing in scope" and outcomes[:4] == [None] * 4


@pytest.mark.parametrize(
    "label, props, concept, domains",
    [
        (
            "Experience",
            {"description": "The ford was impassable after the flood.", "outcome": "failure"},
            "The ford was impassable after the flood.",
            ["experience"],
        ),
        ("Failed_Attempt", {"approach": "crossing the ford", "why_failed": "the flood"}, None, ["failed attempt"]),
    ],
)
def test_every_memory_label_is_a_locus(label, props, concept, domains):
    assert memory_domains(label, props, []) == domains
    if concept:
        assert memory_concept(label, props).startswith(concept[:20])
    assert memory_level(label, props) == 0.0
    row = memory_locus_rows(
        "m", [{"id": "x", "label": label, "props": props, "categories": [], "locus_id": None, "locus_hash": None}]
    )
    assert row and row[0]["props"]["role"] == label


def test_a_stale_locus_is_written_again():
    src = {
        "id": "x",
        "label": "Experience",
        "props": {"description": "The ford flooded.", "outcome": "failure"},
        "categories": [],
        "locus_id": "locus-x",
    }
    from graphmind.recall._logic import text_hash

    digest = text_hash(memory_concept("Experience", src["props"]))
    assert not memory_locus_rows("m", [{**src, "locus_hash": digest, "locus_tier": "hot"}])
    assert memory_locus_rows("m", [{**src, "locus_hash": digest, "locus_tier": "stale"}])
