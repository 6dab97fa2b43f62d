"""Conversation turns in rumination and the Context Object, and drop reasons that state the rule
applied (a new user's brewery trial: every Context Object said "No conversation history found"
although the sender's turns were recorded, and a memory sharing "chiller" with the stimulus was
dropped as sharing nothing)."""

from __future__ import annotations

from graphmind.context.assemble import assemble
from graphmind.context.history import TURN_CHARS, turn_line
from graphmind.context.templates import compose
from graphmind.prompts._models import MemoryItem
from graphmind.prompts.context import ContextInput
from graphmind.ruminate.coverage import node_type_of, on_the_topic
from graphmind.ruminate.established import own_words, read, restated
from graphmind.ruminate.exploration import _as_type
from graphmind.ruminate.relevance import Link, select, specific
from graphmind.ruminate.result import StepRecord
from tests.unit.memory_items import memory as _m


def _turn(node_id: str, speaker: str, text: str, session: str, position: int, day: str = "2026-03-10") -> MemoryItem:
    """A turn as rumination reads it: its text is what was said (not its speaker or session)."""
    props = {
        "text": text,
        "speaker": speaker,
        "session_id": session,
        "position": position,
        "timestamp": f"{day}T18:0{position}:00+00:00",
    }
    return MemoryItem(id=node_id, label="Turn", text=text, properties=props)


RUTH = _m("p-ruth", "Partnership", partner_name="Ruth Okafor", shared_history="lead volunteer mechanic")
WHEELS_1 = _turn("wheels-1", "Ruth Okafor", "The donated wheels keep going out of true after a week.", "conv-wheels", 0)
WHEELS_2 = _turn("wheels-2", "Me", "Are the volunteers checking spoke tension with the meter?", "conv-wheels", 1)
ROTA_3 = _turn("rota-3", "Ruth Okafor", "They're busy with the wheels for the school bike checks.", "conv-rota", 2)
PARTS_1 = _turn("parts-1", "Samir Haddad", "Your disc brake pads are held at customs until Tuesday.", "conv-parts", 0)
METER = _m("strat-meter", "Strategy_Pattern", approach="check every rebuilt wheel with the tension meter")
LINKS = [
    Link("wheels-1", "SPOKEN_BY", "p-ruth"),
    Link("rota-3", "SPOKEN_BY", "p-ruth"),
    Link("wheels-1", "NEXT", "wheels-2"),
    Link("wheels-1", "IN_SESSION", "conv-wheels"),
    Link("rota-3", "IN_SESSION", "conv-rota"),
]
STIMULUS = "Another of the rebuilt wheels has gone out of true already."


def test_a_memory_sharing_one_word_is_dropped_for_sharing_only_that_word_not_for_sharing_nothing():
    chiller = _m("brew-48", "Experience", description="the chiller tripped on high head pressure overnight")
    cask = _m("brew-7", "Experience", description="racked the pale ale to cask and fined it")
    chosen = select(
        [chiller, cask], [], stimulus="The chiller is struggling again with two tanks fermenting", sender=None
    )
    assert chosen.reasons["brew-48"] == (
        "dropped: shares only 'chiller' with the stimulus (on topic takes 2 shared words) "
        "and is linked to nothing on topic"
    )
    assert chosen.reasons["brew-7"] == "dropped: shares nothing with the stimulus and is linked to nothing that does"


def test_the_drop_reason_names_the_stimulus_words_in_its_order():
    pump = _m("tc-pump", "Technical_Context", description="the pumps stall when the tanks are full")
    chosen = select([pump], [], stimulus="Two tanks and three pumps are waiting for the fitter", sender=None)
    assert chosen.reasons["tc-pump"].startswith("kept: shares")
    fitter = _m("n-fit", "Experience", description="the fitter came on Tuesday")
    chosen = select([fitter], [], stimulus="Tanks, pumps and the fitter again", sender=None)
    assert chosen.reasons["n-fit"].startswith("dropped: shares only 'fitter' with the stimulus")


def test_the_senders_own_turn_on_the_most_specific_word_is_kept_and_another_on_a_common_word_is_not():
    chosen = select([RUTH, WHEELS_1, ROTA_3, METER], LINKS, stimulus=STIMULUS, sender="Ruth Okafor")
    assert chosen.reasons["wheels-1"].startswith("kept: shares")  # true, wheel: on topic
    assert "rota-3" not in {m.id for m in chosen.kept}  # "wheels" is in every memory read
    assert chosen.reasons["rota-3"].startswith("dropped: shares only 'wheels'")
    samir = select(
        [PARTS_1, WHEELS_1], [], stimulus="Are you still waiting on anything from customs?", sender="Samir Haddad"
    )
    assert samir.reasons["parts-1"] == "kept: the sender's own turn, shares 'customs' with the stimulus"
    other = select([PARTS_1], [], stimulus="Are you still waiting on anything from customs?", sender="Ruth Okafor")
    # not the sender's: one word is not enough
    assert other.reasons["parts-1"].startswith("dropped: shares only 'customs'")


def test_a_turn_is_not_linked_to_the_topic_through_its_speaker_or_session_but_is_through_next():
    ruth = _m("p-ruth", "Partnership", partner_name="Ruth Okafor", shared_history="rebuilds wheels that go out of true")
    chosen = select([ruth, WHEELS_2, ROTA_3], LINKS, stimulus=STIMULUS, sender=None)
    assert "p-ruth" in chosen.topical
    assert "rota-3" not in {m.id for m in chosen.kept}  # was "kept: linked (SPOKEN_BY p-ruth)"
    threaded = select([WHEELS_1, WHEELS_2], LINKS, stimulus=STIMULUS, sender=None)
    assert threaded.reasons["wheels-2"] == "kept: linked (NEXT wheels-1) to an on-topic memory"


def test_a_turns_session_id_and_speaker_are_not_what_it_is_about():
    said = _turn("tc-2", "Chiller Bob", "Can we stagger knock-out so the tanks don't peak together?", "conv-chiller", 1)
    chosen = select([said], [], stimulus="The chiller is struggling again with two tanks fermenting", sender=None)
    assert chosen.reasons["tc-2"].startswith("dropped: shares only 'tanks'")


def test_specific_stems_are_those_the_fewest_memories_read_hold():
    assert specific([{"wheel", "true"}, {"wheel", "rebuilt"}, {"wheel"}, {"wheel", "true"}]) == {"rebuilt"}
    assert specific([]) == set()


def test_turns_count_for_conversation_history_in_coverage_and_exploration():
    assert node_type_of("Turn") == _as_type("Turn") == "Conversation_Memory"
    assert node_type_of("Experience") == "Strategy_Pattern" and node_type_of("Constraint") == "Constraint"
    rows = [
        {"id": "t-late", "props": {"text": "the kiln shelf cracked again"}},
        {"id": "t-off", "props": {"text": "see you on Thursday Ana"}},
        {"id": "t-old", "props": {"text": "the kiln shelf cracked on the top shelf, a crack right through"}},
    ]
    assert on_the_topic(rows, "Ana: is the kiln shelf cracked?", sender="Ana") == ["t-late", "t-old"]


def test_relevant_history_quotes_the_kept_turns_grouped_by_conversation_and_cites_them():
    other = _turn(
        "rota-1", "Ruth Okafor", "Two volunteers dropped out of the Saturday rota.", "conv-rota", 0, "2026-03-24"
    )
    memories = [WHEELS_2, WHEELS_1, other]
    inputs = ContextInput(stimulus=STIMULUS, sender="Ruth Okafor", memories=memories, scores={"wheels-1": 2.0})
    context = assemble(compose(inputs), stimulus=STIMULUS, sender="Ruth Okafor", identity=None, memories=memories)
    history = context.section("relevant_history")
    assert history.text.splitlines()[:3] == [
        "Said in earlier conversations:",
        '- Mar 10, 2026, Ruth Okafor: "The donated wheels keep going out of true after a week."',
        '- Mar 10, 2026, Me: "Are the volunteers checking spoke tension with the meter?"',
    ]
    assert sorted(history.node_ids) == ["rota-1", "wheels-1", "wheels-2"]
    assert "No conversation history" not in context.to_markdown() and context.validation.valid


def test_a_long_turn_is_cut_at_a_word_outside_its_quotes_and_still_cited():
    long = " ".join(["the glycol chiller could not keep up with both tanks calling for cooling"] * 8)
    said = _turn("t-long", "Tom", long, "s1", 0)
    line = turn_line(said)
    assert line.endswith('"…') and len(line) < TURN_CHARS + 40 and '"the glycol chiller' in line
    inputs = ContextInput(stimulus="The chiller again", sender="Tom", memories=[said])
    context = assemble(compose(inputs), stimulus="The chiller again", sender="Tom", identity=None, memories=[said])
    assert context.section("relevant_history").node_ids == ["t-long"]


def test_a_findings_note_keeps_the_dreamers_words_not_a_memorys():
    """The offline Dreamer lists what its query returned; a dropped turn's words restated under
    "What rumination established:" would pose as relevant (the trial's "I can send organic ones
    tomorrow")."""
    parts = _turn("parts-3", "Samir Haddad", "I can send organic ones tomorrow, same price.", "conv-parts", 2)
    text = "I can send organic ones tomorrow, same price. The customs hold-up on the brake pads is open."
    assert own_words(text, {"parts-3": parts}) == "The customs hold-up on the brake pads is open."
    step = StepRecord(
        number=1,
        kind="gap",
        node_type="Conversation_Memory",
        query="query_conversations()",
        found_ids=["parts-1", "parts-3"],
        new_ids=["parts-1", "parts-3"],
        coverage_score=0.5,
        signals={},
        signal="CONTINUE",
        synthesis=text,
    )
    memories = {"parts-1": PARTS_1, "parts-3": parts}
    notes = read([step], memories).findings
    assert [n.text for n in restated(notes, memories, kept={"parts-1"})] == [
        "The customs hold-up on the brake pads is open."
    ]
    # a sentence quoting a memory relevance kept is the Dreamer's too, and stays (it is shown anyway)
    assert [n.text for n in restated(notes, memories, kept={"parts-1", "parts-3"})] == [text]
    assert [n.supports for n in restated(notes, memories, kept={"parts-3"})] == [["parts-3"]]


def test_quoted_turns_stay_within_the_token_budget_and_are_trimmed_first():
    said = " ".join(["the glycol chiller could not keep up with both tanks calling for cooling"] * 8)
    turns = [_turn(f"t-{i}", "Tom", f"On tank {i}, {said}", f"s{i}", 0) for i in range(6)]
    inputs = ContextInput(stimulus="The chiller again", sender="Tom", memories=turns)
    full = assemble(compose(inputs), stimulus="The chiller again", sender="Tom", identity=None, memories=turns)
    assert len(full.section("relevant_history").node_ids) == 4  # MAX_TURNS
    tight = assemble(
        compose(inputs), stimulus="The chiller again", sender="Tom", identity=None, memories=turns, budget=300
    )
    assert tight.token_count <= 300 and tight.validation.trimmed[0] == "relevant_history"
    assert tight.section("relevant_history").node_ids  # a section keeps its first unit


def test_a_word_every_memory_read_holds_is_never_specific_and_an_unrelated_memory_more_changes_nothing():
    """Review: with "the fewest" as the rule, the school-checks turn was kept when the only
    word shared was one every memory read holds, and one unrelated memory more made "wait" the
    specific word in the place of "customs"."""
    tension = _m("strat-t", "Strategy_Pattern", approach="check every wheel with the tension meter")
    chosen = select([RUTH, ROTA_3, tension], LINKS, stimulus=STIMULUS, sender="Ruth Okafor")
    assert "rota-3" not in {m.id for m in chosen.kept}, chosen.reasons["rota-3"]
    van = _m("c-van", "Constraint", description="the van is waiting for its MOT")
    forms = _m("tc-forms", "Technical_Context", description="customs forms are filed online")
    many = [PARTS_1, WHEELS_1, van, forms, RUTH, METER, WHEELS_2, tension]
    samir = select(many, [], stimulus="Are you still waiting on anything from customs?", sender="Samir Haddad")
    assert samir.reasons["parts-1"].startswith("kept: the sender's own turn"), samir.reasons["parts-1"]
    assert specific([{"wheel"}, {"wheel"}, {"wheel"}]) == set()


def test_a_sender_turn_sharing_a_specific_word_is_seeded_before_later_turns_sharing_a_common_one():
    rows = [{"id": f"t-{n}", "props": {"text": f"kiln firing number {n} went fine"}} for n in range(4)]
    rows.append({"id": "t-glaze", "props": {"text": "the new glaze batch crawled off the pots"}})
    assert on_the_topic(rows, "Ana: the kiln glaze crawled", sender="Ana") == ["t-glaze"]
    assert on_the_topic(rows[:1], "Ana: the kiln glaze crawled", sender="Ana") == ["t-0"]
