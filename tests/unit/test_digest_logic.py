"""The digests' pure logic with exact expected outputs on a small fixture (issue 6)."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from datetime import UTC, datetime

from graphmind.digest._logic import (
    Entry,
    ThreadNotes,
    convergence,
    forgotten,
    render_digest,
    render_forgotten,
    sample_topics,
)
from graphmind.prompts.digest import concepts

NOW = datetime(2026, 2, 1, tzinfo=UTC)


def day(d: str) -> datetime:
    return datetime.fromisoformat(d).replace(tzinfo=UTC)


ENTRIES = [
    Entry("a1", "agents", "Agents plan before they act", day("2026-01-01")),
    Entry("a2", "agents", "Tool calls need budgets", day("2026-01-20"), hits=2, last_hit_at=day("2026-01-25")),
    Entry("a3", "agents", "Reflection beats retries", day("2026-01-30")),
    Entry(
        "p1",
        "philosophy",
        "Watsuji: relations come before entities",
        day("2025-12-01"),
        hits=1,
        last_hit_at=day("2025-12-02"),
    ),
    Entry("p2", "philosophy", "Framing constrains emergence", day("2026-01-10")),
    Entry("x1", "philosophy", "already digested", day("2025-11-01"), status="absorbed"),
    Entry("z1", "zen", "時間不是直線", day("2026-03-01")),  # a date in the future
]


def test_the_digest_block_has_the_proposals_shape_and_is_reproducible():
    samples = sample_topics(ENTRIES, 2, random.Random(7))
    assert list(samples) == ["agents", "philosophy", "zen"]
    assert [len(v) for v in samples.values()] == [2, 2, 1]  # zen has fewer entries than n
    assert all(e.status == "active" for v in samples.values() for e in v)
    block = render_digest(samples)
    assert block.startswith("<rumination-digest>\n### agents\n- [2026-") and block.endswith("\n</rumination-digest>")
    assert "### zen\n- [2026-03-01] 時間不是直線" in block
    assert render_digest(sample_topics(ENTRIES, 2, random.Random(7))) == block


def test_sampling_is_uniform_within_a_topic():
    entries = [Entry(f"e{i}", "t", f"entry {i}") for i in range(5)]
    rng = random.Random(1)
    counts = Counter(e.id for _ in range(20_000) for e in sample_topics(entries, 2, rng)["t"])
    expected = 20_000 * 2 / 5
    assert all(abs(c - expected) / expected < 0.05 for c in counts.values()) and len(counts) == 5


def test_concepts_are_the_proposals_capitalised_terms_without_function_words():
    notes = ["The Watsuji reading links Interface Shapes Cognition to framing.", "Ask Nicolas about Watsuji."]
    assert concepts(notes) == ["Watsuji", "Interface Shapes Cognition", "Ask Nicolas", "Nicolas"]
    assert concepts(["關係先於實體，和辻哲郎"]) == []
    assert concepts([]) == []


def test_a_term_that_opens_a_note_meets_the_same_term_mid_sentence():
    a = ThreadNotes("a", "Leaflet quality", progress_notes=["Shared Termbase with Ingrid", "Checked Xbench rules"])
    b = ThreadNotes("b", "Onboarding", progress_notes=["The freelancer ignored the Termbase and Xbench"])
    assert [c.shared for c in convergence([a, b])] == [["Termbase", "Xbench"]]
    cloud = ThreadNotes(
        "c", "Costs", progress_notes=["Google Cloud bill spiked. Jira Board cleaned up. Team Meeting moved."]
    )
    other = ThreadNotes(
        "d", "Tools", progress_notes=["Azure Cloud quota reached. Trello Board archived. Sales Meeting off."]
    )
    assert convergence([cloud, other]) == []  # two names' last words are no shared term


def test_convergence_hints_at_two_shared_concepts_and_suggests_merging_at_three():
    threads = [
        ThreadNotes(
            "t1", "Constraint and emergence", progress_notes=["Framing via Watsuji and Deacon", "Kauffman too"]
        ),
        ThreadNotes("t2", "Interface shapes cognition", progress_notes=["Watsuji on Framing; Deacon agrees"]),
        ThreadNotes("t3", "Relations before entities", progress_notes=["Watsuji", "Framing matters"]),
        ThreadNotes("t4", "Archived", status="archived", progress_notes=["Watsuji Framing Deacon"]),
        ThreadNotes("t5", "No notes"),
    ]
    assert [c.sentence() for c in convergence(threads)] == [
        'Threads "Constraint and emergence" and "Interface shapes cognition" share concepts: '
        "Framing, Watsuji, Deacon (consider merging)",
        'Threads "Constraint and emergence" and "Relations before entities" share concepts: Framing, Watsuji',
        'Threads "Interface shapes cognition" and "Relations before entities" share concepts: Watsuji, Framing',
    ]


def test_the_forgotten_block_lists_never_read_old_entries_oldest_first():
    found = forgotten(ENTRIES, NOW)
    assert [(f.entry.id, f.age_days) for f in found] == [("a1", 31), ("p2", 22)]
    assert render_forgotten(found).splitlines() == [
        "<forgotten-knowledge>",
        "- [agents, 31d ago] [2026-01-01] Agents plan before they act",
        "- [philosophy, 22d ago] [2026-01-10] Framing constrains emergence",
        "</forgotten-knowledge>",
    ]
    assert forgotten(ENTRIES, NOW, limit=1)[0].entry.id == "a1"
    assert render_forgotten([]) == ""


def test_a_read_entry_is_never_forgotten_and_there_is_no_fallback():
    """The case the rule must reject: an entry read once, long ago (p1, 62 days old, one hit two
    months back), is what a forgetting curve would rank first once the never-read ones are gone."""
    read = [
        dataclasses.replace(e, hits=1, last_hit_at=day("2026-01-31")) if e.id in ("a1", "p2") else e for e in ENTRIES
    ]
    assert forgotten(read, NOW) == []  # every old entry was read: nothing, not the least recently read
    assert forgotten(ENTRIES, NOW, min_age_days=40) == []  # p1 is old enough but was read
    young = [Entry(f"y{i}", "t", f"entry {i}", day("2026-01-26")) for i in range(3)]
    assert forgotten(young, NOW) == []  # 6 days old: not yet
    assert [f.entry.id for f in forgotten(young, NOW, min_age_days=6)] == ["y0", "y1", "y2"]


def test_at_most_limit_the_oldest_first():
    many = [Entry(f"e{i}", "t", f"entry {i}", day(f"2025-12-{10 + i:02d}")) for i in range(8)]
    assert [f.entry.id for f in forgotten(list(reversed(many)), NOW)] == ["e0", "e1", "e2", "e3", "e4"]
    assert forgotten(many, NOW, limit=0) == []
