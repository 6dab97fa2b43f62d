"""Relevance with a reason (issue 21, item 1): on topic, one edge from on topic, the sender's
partnership, a weak name-only match; everything else dropped, each with its reason."""

from __future__ import annotations

from graphmind.context.assemble import assemble
from graphmind.context.templates import compose
from graphmind.prompts.context import ContextInput
from graphmind.ruminate.relevance import Link, select
from tests.unit.memory_items import memory as _m

INES = _m("ines", "Partnership", partner_name="Ines", shared_history="pruning the old pear trees")
PEARS = _m(
    "conv-pear",
    "Conversation_Memory",
    topic="pear tree pruning schedule",
    timestamp="2026-02-01T10:00:00+00:00",
    message_count=6,
)
PUMP = _m("tc-pump", "Technical_Context", component="greenhouse pump", description="irrigation pump stalls")
RELAY = _m("strat-relay", "Strategy_Pattern", approach="swap the relay before rewiring anything")
PRESS = _m("tc-press", "Technical_Context", component="cider press", description="press motor overheated")
LINKS = [
    Link("conv-pear", "INVOLVES", "ines"),
    Link("strat-relay", "APPLIES_TO", "tc-pump"),
    Link("tc-press", "INVOLVES", "ines"),
]
MIND = [INES, PEARS, PUMP, RELAY, PRESS]


def test_on_topic_keeps_the_match_and_its_linked_strategy_and_drops_the_distractors():
    chosen = select(MIND, LINKS, stimulus="Ines: the irrigation pump stalled again", sender="Ines")
    assert [m.id for m in chosen.kept] == ["ines", "tc-pump", "strat-relay"] and chosen.weak == []
    assert chosen.reasons["tc-pump"].startswith("kept: shares")
    assert chosen.reasons["strat-relay"] == "kept: linked (APPLIES_TO tc-pump) to an on-topic memory"
    assert chosen.reasons["tc-press"].startswith("dropped")  # linked to Ines, not to the topic
    assert chosen.reasons["conv-pear"].startswith("dropped")


def test_a_name_only_match_is_weak_and_says_so():
    stimulus = "Ines, can we move the beehives before the orchard spraying?"
    chosen = select(MIND, LINKS, stimulus=stimulus, sender="Ines")
    assert [m.id for m in chosen.kept] == ["ines", "conv-pear"] and chosen.weak == ["conv-pear"]
    assert "beehives" in chosen.topic_terms and "ines" not in chosen.topic_terms
    inputs = ContextInput(
        stimulus=stimulus, sender="Ines", memories=chosen.kept, weak_ids=chosen.weak, unknown_terms=chosen.topic_terms
    )
    context = assemble(compose(inputs), stimulus=stimulus, sender="Ines", identity=None, memories=chosen.kept)
    situation = context.section("current_situation").text
    assert "Ines last spoke about pear tree pruning schedule; nothing in memory about" in situation
    assert "continues" not in context.to_markdown()
    assert context.section("relevant_history").text.startswith("No ")


def test_an_off_topic_stimulus_keeps_no_specifics_and_says_what_is_not_known():
    stimulus = "What is the best sourdough hydration for rye?"
    chosen = select(MIND, LINKS, stimulus=stimulus, sender=None)
    assert chosen.kept == [] and all(r.startswith("dropped") for r in chosen.reasons.values())
    inputs = ContextInput(stimulus=stimulus, unknown_terms=chosen.topic_terms)
    context = assemble(compose(inputs), stimulus=stimulus, sender=None, identity=None, memories=[])
    assert "Nothing in memory about best, sourdough, hydration." in context.section("current_situation").text
    for word in ("pump", "pear", "press", "relay"):
        assert word not in context.to_markdown()


def test_a_name_alone_never_makes_a_memory_on_topic():
    chosen = select([INES, PRESS], [], stimulus="Ines here.", sender="Ines")
    assert [m.id for m in chosen.kept] == ["ines"]
    assert chosen.reasons["tc-press"].startswith("dropped")


def test_one_shared_common_word_is_not_a_topic_but_a_one_word_stimulus_can_match():
    window = _m("c-window", "Constraint", description="Treatment must finish before the winter cluster forms")
    fair = _m("c-fair", "Constraint", description="Craft fair stall booking closes")
    chosen = select([window, fair], [], stimulus="Should we take a stall at the winter craft fair?", sender=None)
    assert [m.id for m in chosen.kept] == ["c-fair"]  # shares stall, craft, fair; the other only "winter"
    assert [m.id for m in select([window, fair], [], stimulus="Winter?", sender=None).kept] == ["c-window"]


def test_two_hops_along_a_typed_edge_and_not_along_any_edge():
    fuse = _m("fail-fuse", "Failed_Attempt", approach="replace the fuse", why_failed="it blew within a day")
    lesson = _m("strat-meter", "Strategy_Pattern", approach="meter the coil before swapping parts")
    flyer = _m("conv-flyer", "Conversation_Memory", topic="cider fair flyer")
    links = [
        Link("fail-fuse", "ATTEMPTED_ON", "tc-pump"),
        Link("strat-meter", "LEARNED_FROM", "fail-fuse"),
        Link("conv-flyer", "REFERENCES", "fail-fuse"),
    ]
    chosen = select([PUMP, fuse, lesson, flyer], links, stimulus="the irrigation pump stalled again", sender=None)
    assert [m.id for m in chosen.kept] == ["tc-pump", "fail-fuse", "strat-meter"]
    assert (
        chosen.reasons["strat-meter"]
        == "kept: linked (LEARNED_FROM fail-fuse, ATTEMPTED_ON tc-pump) to an on-topic memory"
    )
    assert chosen.reasons["conv-flyer"].startswith("dropped")  # REFERENCES is not a typed hop
    cut = select([PUMP, fuse, lesson, flyer], links[:1], stimulus="the irrigation pump stalled again", sender=None)
    assert "strat-meter" not in [m.id for m in cut.kept]


def test_three_typed_hops_are_kept_and_a_fourth_is_not():
    mains = _m("tc-mains", "Technical_Context", component="well house", description="the supply voltage sags at dusk")
    frost = _m("tc-frost", "Technical_Context", component="overhead line", description="hoar frost on the wires")
    timer = _m("strat-timer", "Strategy_Pattern", approach="run the well on a midday timer")
    manual = _m("ref-manual", "Code_Reference", file_path="manuals/timer.pdf")
    links = [
        Link("tc-mains", "CAUSED", "tc-pump"),
        Link("tc-frost", "CAUSED", "tc-mains"),
        Link("strat-timer", "ADDRESSES", "tc-frost"),
        Link("strat-timer", "USED_IN", "ref-manual"),
    ]
    stimulus = "the irrigation pump stalled again"
    chosen = select([PUMP, mains, frost, timer, manual], links, stimulus=stimulus, sender=None)
    assert [m.id for m in chosen.kept] == ["tc-pump", "tc-mains", "tc-frost", "strat-timer"]
    assert (
        chosen.reasons["strat-timer"]
        == "kept: linked (ADDRESSES tc-frost, CAUSED tc-mains, CAUSED tc-pump) to an on-topic memory"
    )
    assert chosen.reasons["ref-manual"].startswith("dropped")  # a fourth hop
    untyped = [*links[:2], Link("strat-timer", "REFERENCES", "tc-frost")]
    kept = select([PUMP, mains, frost, timer], untyped, stimulus=stimulus, sender=None).kept
    assert "strat-timer" not in [m.id for m in kept]  # every hop after the first is a typed one


def test_no_second_hop_through_a_partnership():
    stall = _m("conv-stall", "Conversation_Memory", topic="irrigation pump stalled")
    chosen = select(
        [INES, PUMP, stall, PRESS],
        [Link("conv-stall", "INVOLVES", "ines"), Link("tc-press", "CAUSED", "ines")],
        stimulus="the irrigation pump stalled again",
        sender=None,
    )
    assert chosen.reasons["tc-press"].startswith("dropped")


def test_an_experience_its_kept_pattern_stands_for_is_dropped_and_its_topic_known():
    grinder = _m("x1", "Experience", description="The espresso grinder jammed; cleaned the burrs", outcome="success")
    clean = _m("p1", "Pattern", description="Clean the parts when the output drops")
    says_all = _m("p2", "Pattern", description="When an espresso grinder jammed, clean its burrs")
    chosen = select(
        [grinder, says_all], [Link("x1", "EXEMPLIFIES", "p2")], stimulus="my espresso grinder jammed again", sender=None
    )
    assert [m.id for m in chosen.kept] == ["p2"] and chosen.reasons["x1"] == "dropped: pattern p2 stands for it"
    assert chosen.topic_terms == []  # memory knows of the grinder, through the pattern
    tells_more = select(
        [grinder, clean], [Link("x1", "EXEMPLIFIES", "p1")], stimulus="my espresso grinder jammed again", sender=None
    )  # the pattern says nothing of the grinder: the experience says what it does not
    assert [m.id for m in tells_more.kept] == ["x1", "p1"] and tells_more.topic_terms == []
    dismissed = select(
        [grinder, clean],
        [Link("x1", "EXEMPLIFIES", "p1")],
        stimulus="my espresso grinder jammed again",
        sender=None,
        established=_dismissing("p1"),
    )
    assert [m.id for m in dismissed.kept] == ["x1"]  # no pattern kept: the experience speaks


def _dismissing(memory_id: str):
    from graphmind.ruminate.established import Established

    return Established(dismissed={memory_id: "step-1"})


def test_a_word_memory_holds_only_in_off_topic_memories_is_not_said_to_be_unknown():
    """The cider press is in memory, but nothing about its warranty: the Context Object says
    memory names the press only in memories about other matters, not that it knows nothing of it."""
    stimulus = "Does the supplier's warranty cover the press?"
    chosen = select(MIND, LINKS, stimulus=stimulus, sender=None)
    assert chosen.kept == [] and chosen.reasons["tc-press"].startswith("dropped")
    assert "press" in chosen.named_elsewhere and "press" not in chosen.topic_terms
    assert "warranty" in chosen.topic_terms and "warranty" not in chosen.named_elsewhere
    inputs = ContextInput(stimulus=stimulus, unknown_terms=chosen.topic_terms, named_elsewhere=chosen.named_elsewhere)
    context = assemble(compose(inputs), stimulus=stimulus, sender=None, identity=None, memories=[])
    situation = context.section("current_situation").text
    assert "Nothing in memory about" in situation and "warranty" in situation
    assert "press comes up only in memories about other matters." in situation


def test_a_code_of_capitals_counts_beside_the_content_words():
    """A ringing station's "We're out of AA rings again": every memory shares "ring"; the
    ring size "AA", too short for a content word, tells the one about AA rings apart."""
    aa = _m("e60", "Experience", description="AA rings now out too; borrowed a string from the observatory")
    c = _m("e57", "Experience", description="New C ring order arrived, five strings")
    wire = _m("e9", "Experience", description="Ring pliers lost near the net ride")
    chosen = select([aa, c, wire], [], stimulus="We're out of AA rings again, what should we do?", sender=None)
    assert [m.id for m in chosen.kept] == ["e60"], chosen.reasons
    pm = select([wire], [], stimulus="Ring pliers at 3 PM?", sender=None)  # times are no codes
    assert [m.id for m in pm.kept] == ["e9"], pm.reasons
    down = _m("e10", "Experience", description="THE NET IS DOWN AGAIN")
    shout = select([down], [], stimulus="THE RING IS LOST", sender=None)  # nor stopwords shouted
    assert shout.kept == [], shout.reasons


def test_a_principle_on_the_topic_does_not_bring_in_every_pattern_it_subsumes():
    """A trial's ladder node listed its members ("... Subsumes: truing, bleeding"), so it shared
    the stimulus's words; its bleed pattern was kept for a wobbling wheel. Up a SUBSUMES edge
    (the principle over an on-topic pattern) still reaches."""
    wheel = _m("p-true", "Pattern", description="Trued the wobbling back wheel with quarter turns on the spokes")
    bleed = _m("p-bleed", "Pattern", description="Bled the hydraulic brake lever with mineral oil")
    rear = _m("a-rear", "Abstraction", name="Rear", generalization="Back wheel wobbling. Subsumes: truing and bleeding")
    links = [Link("a-rear", "SUBSUMES", "p-true"), Link("a-rear", "SUBSUMES", "p-bleed")]
    chosen = select([wheel, bleed, rear], links, stimulus="Maria's back wheel is wobbling again", sender=None)
    assert {"p-true", "a-rear"} <= {m.id for m in chosen.kept} and "p-bleed" not in {m.id for m in chosen.kept}
    up = select([wheel, bleed, rear], links[:1], stimulus="the spokes on the back wheel", sender=None)
    assert up.reasons["a-rear"].startswith("kept"), up.reasons


def test_who_said_it_is_not_what_it_is_about():
    headset = _m("e33", "Experience", description="Rosa says her bike knocks over bumps; headset adjusted")
    chosen = select([headset], [], stimulus="Priya says her bike is skipping uphill", sender=None)
    assert chosen.kept == [] and chosen.reasons["e33"].startswith("dropped: shares only 'bike'"), chosen.reasons
