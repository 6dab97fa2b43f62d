"""Diminishing returns (issue 21, item 2): what a step yields, when rumination stops, where
threads may start. Each rule with a case it must reject."""

from __future__ import annotations

from graphmind.ruminate.relevance import Link
from graphmind.ruminate.returns import StepYield, diminishing, judge, open_with_content, step_yield
from tests.unit.memory_items import memory as _m

INES = _m("ines", "Partnership", partner_name="Ines")
PUMP = _m("tc-pump", "Technical_Context", component="greenhouse pump", description="irrigation pump stalls")
RELAY = _m("strat-relay", "Strategy_Pattern", approach="swap the relay before rewiring anything")
PRESS = _m("tc-press", "Technical_Context", component="cider press", description="press motor overheated")
TALK = _m("conv-press", "Conversation_Memory", topic="cider press repairs", timestamp="2026-02-01T10:00:00+00:00")
LINKS = [Link("strat-relay", "APPLIES_TO", "tc-pump"), Link("tc-press", "INVOLVES", "ines")]
LABELS = {m.id: m.label for m in (INES, PUMP, RELAY, PRESS, TALK)}
BARREN = StepYield(new_relevant=(), closed=())


def test_a_new_relevant_memory_is_a_yield():
    got = step_yield({"tc-pump"}, {"tc-pump", "strat-relay"}, {"Technical_Context"}, {"Technical_Context"}, LABELS)
    assert got.new_relevant == ("strat-relay",) and not got.barren


def test_a_gap_closed_by_a_relevant_memory_is_a_yield():
    # depth covered Strategy_Pattern with a memory the first look had returned and relevance kept
    got = step_yield(
        {"tc-pump", "strat-relay"},
        {"tc-pump", "strat-relay"},
        {"Technical_Context"},
        {"Technical_Context", "Strategy_Pattern"},
        LABELS,
    )
    assert got.closed == ("Strategy_Pattern",) and not got.barren


def test_a_gap_covered_by_an_irrelevant_memory_is_not_closed():
    # the query covered Conversation_Memory with a talk relevance drops: no content, no yield
    got = step_yield(
        {"tc-pump"}, {"tc-pump"}, {"Technical_Context"}, {"Technical_Context", "Conversation_Memory"}, LABELS
    )
    assert got.closed == () and got.barren


def test_a_barren_step_ends_rumination_unless_a_found_angle_is_still_open():
    assert diminishing([StepYield(("a",), ()), BARREN], patience=1)
    assert not diminishing([StepYield(("a",), ())], patience=1)
    assert not diminishing([BARREN], patience=1, open_with_content=["Strategy_Pattern"])
    assert not diminishing([BARREN], patience=None)  # the rule turned off
    assert not diminishing([StepYield(("a",), ()), BARREN], patience=2)
    assert diminishing([BARREN, BARREN], patience=2)


def test_open_gaps_with_content_are_unexplored_types_of_anchors():
    anchors = {"tc-pump", "strat-relay"}
    assert open_with_content(anchors, LABELS, explored={"Technical_Context"}) == ["Strategy_Pattern"]
    assert open_with_content(anchors, LABELS, explored={"Technical_Context", "Strategy_Pattern"}) == []
    assert open_with_content({"ines"} - anchors, LABELS, explored=set()) == ["Partnership"]


def test_anchors_are_on_topic_or_linked_never_the_partner_alone():
    judged = judge(
        [INES, PUMP, RELAY, PRESS, TALK], LINKS, stimulus="Ines: the irrigation pump stalled again", sender="Ines"
    )
    assert judged.topical == {"tc-pump"} and judged.anchors == {"tc-pump", "strat-relay"}
    assert judged.partner == "ines" and "ines" in judged.relevant and "ines" not in judged.anchors
    assert "tc-press" not in judged.relevant  # linked to the speaker, not to the topic


def test_a_name_only_match_has_no_anchor_but_keeps_who_speaks():
    judged = judge([INES, PRESS], LINKS, stimulus="Ines, can we move the beehives?", sender="Ines")
    assert judged.anchors == frozenset() and judged.topical == frozenset()
    assert judged.relevant == {"ines"} and judged.partner == "ines"


def _offline_step(composite: float):
    from graphmind.prompts.ruminate import GapAnalysis, RuminationStepInput
    from graphmind.ruminate.offline import continue_step

    inputs = RuminationStepInput(
        stimulus="Ines: the irrigation pump stalled again",
        sender="Ines",
        gap=GapAnalysis(
            covered_types=["Technical_Context"],
            gap_types=["Strategy_Pattern", "Constraint"],
            composite_score=0.75,
            priority_gap="Strategy_Pattern",
            signals={
                "semantic": 0.3,
                "quality": 0.4,
                "structural": 0.5,
                "composite": composite,
                "semantic_level": "low",
            },
        ),
        query="query_strategy_patterns()",
        query_results=[RELAY],
    )
    return continue_step(inputs, [])


def test_the_offline_dreamer_reads_the_v2_signals():
    # a new memory and an open gap: it continues while the graph fits the stimulus poorly ...
    high = _offline_step(0.7)
    assert high.signal == "CONTINUE" and "V2 gap 0.70" in high.signal_reasoning
    # ... and crystallizes once the composite gap is low (the seed: "I have enough context here")
    low = _offline_step(0.2)
    assert low.signal == "CRYSTALLIZE" and "fits this well" in low.signal_reasoning
