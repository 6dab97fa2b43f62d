"""The Dreamer's findings shape the Context Object (issue 21, item 1): what the exploration
established raises a memory's score and rank, a finding that sets a memory aside drops it, and
the sections cite (and, when grounded, restate) the findings behind what they show."""

from __future__ import annotations

from graphmind.context.assemble import assemble
from graphmind.context.templates import compose
from graphmind.prompts.context import ContextInput, FindingNote
from graphmind.ruminate.established import UNREADABLE, Established, read, verdicts
from graphmind.ruminate.relevance import Link, select
from graphmind.ruminate.result import StepRecord
from tests.unit.memory_items import memory as _m

HIVES = _m("tc-hives", "Technical_Context", component="orchard hives", description="hives beside the orchard swarm")
CLIP = _m("strat-clip", "Strategy_Pattern", approach="clip the queen's wing", applicability="orchard hives that swarm")
BAIT = _m(
    "strat-bait",
    "Strategy_Pattern",
    approach="set bait boxes near the orchard hives",
    applicability="Does not apply to hives in the town garden",
)
SPRAY = _m("fail-spray", "Failed_Attempt", approach="spraying water at the swarm", why_failed="they settled higher")
MEMORIES = {m.id: m for m in (HIVES, CLIP, BAIT, SPRAY)}
LINKS = [
    Link("strat-clip", "APPLIES_TO", "tc-hives"),
    Link("strat-bait", "APPLIES_TO", "tc-hives"),
    Link("fail-spray", "ATTEMPTED_ON", "tc-hives"),
]
STIMULUS = "The orchard hives are swarming again."


def _step(number: int, synthesis: str, found: list[str], kind: str = "gap", **extra) -> StepRecord:
    return StepRecord(
        number=number,
        kind=kind,
        node_type=None,
        query="",
        found_ids=found,
        new_ids=found,
        coverage_score=0.5,
        signals={},
        signal="CONTINUE",
        synthesis=synthesis,
        **extra,
    )


def test_a_sentence_naming_a_memory_as_a_dead_end_dismisses_it_and_the_others_are_supported():
    text = (
        "Clipping the queen's wing keeps coming back as what holds these colonies [strat-clip]. "
        "The water spraying [fail-spray] is a dead end for this swarm."
    )
    backs, drops = verdicts(text, ["strat-clip", "fail-spray", "strat-bait"], MEMORIES)
    assert backs == ["strat-clip"] and drops == ["fail-spray"]  # cited-only bait: the finding dismissed something
    assert verdicts("It all hangs together.", ["strat-bait"], MEMORIES) == (["strat-bait"], [])
    for phrase in ("has no bearing on this", "is a different matter", "is not really related", "a red herring"):
        assert verdicts(f"The fail-spray memory {phrase}.", [], MEMORIES) == ([], ["fail-spray"]), phrase


def test_a_dismissal_naming_two_memories_is_ambiguous_and_counts_for_neither():
    text = "The orchard hives swarming is unrelated to the water spraying [fail-spray]."
    assert verdicts(text, [], MEMORIES) == ([], [])
    clauses = "fail-spray is a dead end; strat-clip is the way."
    assert verdicts(clauses, [], MEMORIES) == (["strat-clip"], ["fail-spray"])


def test_a_memory_s_own_negative_words_quoted_by_a_finding_do_not_dismiss_it():
    quoted = f"{BAIT.text} [strat-bait]"  # the offline Dreamer quotes memories like this
    assert verdicts(quoted, ["strat-bait"], MEMORIES) == (["strat-bait"], [])


def test_only_the_dreamer_s_steps_count_and_a_later_finding_takes_a_dismissal_back():
    steps = [
        _step(0, "The stimulus touches fail-spray directly: it is unrelated.", ["fail-spray"], kind="initial"),
        _step(2, "fail-spray looks like a dead end.", ["fail-spray"]),
        _step(3, "Seen again, fail-spray is what the swarm taught us.", ["fail-spray"], kind="thread"),
        _step(4, "strat-bait is irrelevant here.", ["strat-bait"], signal_reasoning=UNREADABLE),
        _step(5, "strat-clip is unrelated.", ["strat-clip"], hallucinated=["Zed"]),
    ]
    found = read(steps, MEMORIES)
    assert found.dismissed == {} and found.supported == {"fail-spray": ("step-3",)}
    assert [f.id for f in found.findings] == ["step-2", "step-3"]
    assert read(steps[:2], MEMORIES).dismissed == {"fail-spray": "step-2"}


def test_relevance_drops_what_a_finding_set_aside_and_scores_what_findings_established():
    plain = select(list(MEMORIES.values()), LINKS, stimulus=STIMULUS, sender=None)
    assert {m.id for m in plain.kept} == set(MEMORIES) and plain.scores["strat-clip"] > plain.scores["strat-bait"]
    established = Established(supported={"strat-bait": ("step-2", "step-3")}, dismissed={"fail-spray": "step-2"})
    chosen = select(list(MEMORIES.values()), LINKS, stimulus=STIMULUS, sender=None, established=established)
    assert "fail-spray" not in {m.id for m in chosen.kept} and chosen.dismissed == {"fail-spray"}
    assert chosen.reasons["fail-spray"] == "dropped: the exploration set it aside (step-2)"
    assert chosen.scores["strat-bait"] == plain.scores["strat-bait"] + 2 > chosen.scores["strat-clip"]
    assert chosen.reasons["strat-bait"].endswith("; established by step-2, step-3")


def test_a_dismissed_on_topic_memory_no_longer_carries_its_links():
    established = Established(dismissed={"tc-hives": "step-2"})
    chosen = select(list(MEMORIES.values()), LINKS, stimulus=STIMULUS, sender=None, established=established)
    assert [m.id for m in chosen.kept] == ["strat-clip", "strat-bait"]  # on topic by their own words
    # was kept for its edge to the hives; it shares one word, and the reason says which
    assert chosen.reasons["fail-spray"].startswith("dropped: shares only 'swarming'")


def _context(scores: dict[str, float], findings: list[FindingNote]):
    memories = list(MEMORIES.values())
    inputs = ContextInput(stimulus=STIMULUS, memories=memories, scores=scores, findings=findings)
    draft = compose(inputs)
    return assemble(draft, stimulus=STIMULUS, sender=None, identity=None, memories=memories, findings=findings)


def test_the_established_strategy_leads_strategic_direction():
    plain = _context({}, []).section("strategic_direction").text
    assert plain.startswith("Approach: clip the queen's wing")  # shares more with the stimulus
    ranked = select(
        list(MEMORIES.values()),
        LINKS,
        stimulus=STIMULUS,
        sender=None,
        established=Established(supported={"strat-bait": ("step-2", "step-3")}),
    ).scores
    assert (
        _context(ranked, [])
        .section("strategic_direction")
        .text.startswith("Approach: set bait boxes near the orchard hives")
    )


def test_sections_cite_the_findings_and_restate_only_grounded_conclusions():
    grounded = FindingNote(
        id="step-2",
        text="Bait boxes near the orchard hives caught the last swarm before it settled higher.",
        supports=["strat-bait"],
    )
    invented = FindingNote(
        id="step-3", text="Bait boxes worked for Marta at the Linden apiary last June.", supports=["strat-bait"]
    )
    context = _context({"strat-bait": 3.0}, [grounded, invented])
    strategy = context.section("strategic_direction")
    assert strategy.finding_ids == ["step-2", "step-3"] and "strat-bait" in strategy.node_ids
    assert "What rumination established:\n- Bait boxes near the orchard hives caught the last swarm" in strategy.text
    assert "Marta" not in context.to_markdown() and "Linden" not in context.to_markdown()
    assert context.validation.valid or context.validation.short
    assert context.section("constraints").finding_ids == []
