"""The offline ``ask`` (graphmind/recall/offline.py) on identifiers and outdated memories, pure:
a recall tool stands in for the graph."""

from __future__ import annotations

from typing import Any

import pytest

from graphmind.dream.entities import is_name, name_spans
from graphmind.dream.offline import exemplar_name
from graphmind.llm.base import Tool
from graphmind.prompts._models import MemoryItem
from graphmind.prompts.recall import RecallQuestion
from graphmind.recall.identifiers import by_count, identifiers, named_by
from graphmind.recall.offline import answer
from graphmind.recall.tools import RecallToolInput

MEMORIES = [
    {"id": "b1", "label": "Experience", "text": "Batch B-2231 was dumped after an infection in FV-03."},
    {"id": "b2", "label": "Experience", "text": "Batch B-2213 fermented clean, packaged on Friday."},
    {"id": "b3", "label": "Experience", "text": "Batch B-2232 stalled at 1.020; roused the yeast and it finished."},
    {
        "id": "s1",
        "label": "Experience",
        "text": "FV-07 glycol setpoint is 18C for ales.",
        "outdated": "not valid since x",
    },
    {"id": "s2", "label": "Experience", "text": "FV-07 glycol setpoint changed to 19C for ales."},
]


def _tool() -> Tool:
    def call(args: RecallToolInput) -> dict[str, Any]:  # as recall ranks and marks: those naming the ids first
        texts = [f"{m['id']}\n{m['text']}" for m in MEMORIES]
        held = named_by(texts, identifiers(args.query))
        hits = [dict(m, score=0.5) | ({"names": ids} if ids else {}) for m, ids in zip(MEMORIES, held)]
        return {"hits": by_count(hits, held)}

    return Tool("recall_memories", "recall", RecallToolInput, call)


def ask(question: str):
    return answer(RecallQuestion(question=question), [_tool()])


def test_an_id_alone_is_answered_from_its_memory_and_not_from_its_near_twins():
    assert ask("B-2231").cited_ids == ["b1"]
    said = ask("What happened to batch B-2232?")
    assert said.found and said.cited_ids == ["b3"]


def test_ids_recall_ranked_by_answer_whatever_else_is_given_or_first():
    from graphmind.prompts._models import MemoryItem

    given = MemoryItem(id="x", label="Experience", text="Cleaned the mash tun after brew day.")
    said = answer(RecallQuestion(question="What happened to batch B-2232?", memories=[given]), [_tool()])
    assert said.found and said.cited_ids == ["b3"]  # a memory the caller gave first does not decide
    both = ask("Did B-2231 and B-2232 both finish?")
    assert set(both.cited_ids) == {"b1", "b3"}  # every id recall ranked by, not only the first hit's


def test_an_id_recall_did_not_rank_by_is_the_questions_context():
    def call(args: RecallToolInput) -> dict[str, Any]:  # a tail number most hits name: no "names"
        fleet = [
            {"id": "g1", "label": "Experience", "text": "N517KT starter-generator offline, replaced the control unit."},
            {"id": "n1", "label": "Experience", "text": "N482KT fuel nozzles coked, cleaned them."},
            {"id": "n2", "label": "Experience", "text": "N482KT brake assembly worn, replaced it."},
        ]
        return {"hits": [dict(m, score=0.5) for m in fleet]}

    tool = Tool("recall_memories", "recall", RecallToolInput, call)
    said = answer(RecallQuestion(question="N482KT starter-generator offline after start?"), [tool])
    assert said.found and said.cited_ids[0] == "g1", said


def test_an_absent_id_is_said_and_the_answer_is_not_found():
    said = ask("What happened to batch B-2299?")
    assert not said.found and said.answer.startswith("No memory names B-2299.")
    both = ask("Were B-2231 and B-2299 both dumped?")
    assert both.found and both.answer.startswith("No memory names B-2299.") and both.cited_ids == ["b1"]


def test_an_outdated_memory_comes_last_and_says_so():
    said = ask("What is the glycol setpoint for ales?")
    assert said.cited_ids[:2] == ["s2", "s1"] and "[s1] (outdated: not valid since x)" in said.answer


@pytest.mark.parametrize("token", ["80C", "16GB", "1.5L", "60min", "100Mbps", "3.5kg", "500s", "2FA"])
def test_a_number_with_a_unit_is_no_name(token: str):
    assert not is_name(token)


@pytest.mark.parametrize("token", ["B-2231", "S-4102", "v2.3.1", "x86_64", "payments-api", "FV-07"])
def test_identifiers_stay_names(token: str):
    assert is_name(token)


@pytest.mark.parametrize("text", ["retorqued to 95 Nm after", "a 12 V pump", "raised it to 3 GB", "60 Min rest"])
def test_a_unit_after_a_number_is_no_name(text: str):
    assert name_spans(text) == []


def test_a_capitalised_word_after_a_word_is_still_a_name():
    assert [text[a:b] for text in ["the shroud on Tern had"] for a, b in name_spans(text)] == ["Tern"]


def test_a_pattern_name_drops_the_preposition_left_without_its_name():
    shrouds = [
        "The starboard shroud on Tern had a broken strand at the swage",
        "The port shroud on Petrel had a broken strand near the swage",
        "The forestay on Heron had a broken strand",
    ]
    assert exemplar_name(shrouds).startswith("The port shroud had a broken strand")
    pumps = ["Ordered an impeller for Petrel; two vanes gone", "Ordered an impeller for Tern; vanes cracked"]
    assert " for;" not in exemplar_name(pumps) and "on the" in exemplar_name(
        ["Ran it on the dock, fine", "ran on the dock"]
    )
    logins = ["Logged in and restarted the worker", "Logged in and restarted it again"]
    assert exemplar_name(logins).startswith("Logged in and restarted")  # a phrasal verb keeps its particle


def test_a_capitalised_name_after_a_number_stays_a_name():
    assert [t[a:b] for t in ["Restarted 3 Ceph OSDs"] for a, b in name_spans(t)] == ["Ceph", "OSDs"]


def test_an_identifier_is_context_only_when_many_and_a_large_share_of_candidates_name_it():
    from graphmind.recall.identifiers import named_by

    ticket = ["T-4411 opened", "T-4411 escalated", "T-4411 resolved"] + [f"other {i}" for i in range(27)]
    assert sum(bool(x) for x in named_by(ticket, ["T-4411"], most=2)) == 3  # 3 of 30: what it asks about
    fleet = [f"N482KT job {i}" for i in range(6)] + [f"N517KT job {i}" for i in range(10)]
    assert not any(named_by(fleet, ["N482KT"], most=2))  # 6 of 16: where the question is
    assert sum(bool(x) for x in named_by(fleet, ["N482KT"])) == 6  # without a limit, as before


def test_a_pattern_name_prefers_a_typical_member_that_names_nothing_to_one_a_cut_would_leave_broken():
    """Cutting a name out of a sentence leaves a seam ("The replacement teapot from arrived");
    among the members sharing at least half as many terms as the most typical one, the name is
    taken from one whose opening loses the fewest words to the cut."""
    teapots = [
        "The teapot hired from Propworks got chipped in Act 2; superglued it and ordered a replacement",
        "Replacement teapot from Propworks did not arrive before we left Kendal",
        "The teapot is too big for the tray; re-marked the tray position",
        "The replacement teapot from Propworks arrived at the stage door; the chipped teapot is retired",
    ]
    assert exemplar_name(teapots).startswith("The teapot is too big for the tray")
    lone = ["Flushed the Redis cache on cart-api", "Flushed the Redis cache on pay-api", "Wrote the runbook"]
    assert exemplar_name(lone).startswith("Flushed the")  # an atypical clean member is not taken


def _given(hits: list[dict[str, Any]]) -> Tool:
    def call(args: RecallToolInput) -> dict[str, Any]:
        return {"hits": [dict(h, score=0.5) for h in hits]}

    return Tool("recall_memories", "recall", RecallToolInput, call)


def test_a_question_of_short_words_answers_from_them_and_a_name_is_not_one_of_them():
    shop = [
        {"id": "d1", "label": "Experience", "text": "Bought cyc dye and fabric glue from Flint; delivered next day."},
        {"id": "r1", "label": "Experience", "text": "Rex had his booster and a nail trim on Tuesday."},
    ]
    found = answer(RecallQuestion(question="Where did we buy the cyc dye?"), [_given(shop)])
    assert found.found and found.cited_ids == ["d1"]
    named = answer(RecallQuestion(question="How old is Rex?"), [_given(shop)])  # "Rex" is what it is about
    assert not named.found and named.cited_ids == []


def test_what_replaced_an_outdated_memory_comes_in_its_place_not_before_a_better_answer():
    hits = [
        {"id": "store", "label": "Experience", "text": "After the tour the set is stored at the Leeds unit."},
        {"id": "call-old", "label": "Experience", "text": "Cast call for the tour is 18:15.", "outdated": "not valid"},
        {"id": "call-new", "label": "Experience", "text": "Cast call moved to 18:30.", "replaces": "call-old"},
    ]
    said = answer(RecallQuestion(question="Where is the set stored after the tour?"), [_given(hits)])
    assert said.cited_ids[:2] == ["store", "call-new"] and said.cited_ids[-1] == "call-old"


def test_an_experience_answers_with_the_sentence_after_the_one_that_matched():
    """A log line tells what happened, then what was done: "who fixed it" is in the second."""
    hits = [
        {
            "id": "e12",
            "label": "Experience",
            "text": "The staircase truck creaked on the entrance. Tom tightened the coach bolts; silent again.",
        },
        {"id": "p1", "label": "Pattern", "text": "Staircase truck creaks. Check the brake first."},
    ]
    said = answer(RecallQuestion(question="Who fixed the staircase truck when it creaked?"), [_given(hits)])
    assert said.answer.startswith("The staircase truck creaked on the entrance. Tom tightened the coach bolts")
    assert "Check the brake first" not in said.answer  # a pattern's composed text is not a log line
    twice = [{"id": "e1", "label": "Experience", "text": "The truck creaked. The truck creaked. Tom fixed it."}]
    again = answer(RecallQuestion(question="Why did the truck creak?"), [_given(twice)])
    assert "Tom fixed it" in again.answer  # a repeated sentence does not hide the one after it


def test_an_abstractions_list_of_members_is_no_answer():
    """A new user asked how many birds were ringed and got an offline abstraction's template
    list ("Subsumes: measuring, New C ring order arrived, ...") among the answer's sentences."""
    memories = [
        MemoryItem(
            id="a1", label="Abstraction", text="Rings. Subsumes: measuring, New C ring order arrived and net round."
        ),
        MemoryItem(id="e1", label="Experience", text="New C ring order arrived: 5 strings of 20."),
    ]
    said = answer(RecallQuestion(question="When did the new C ring order arrive?", memories=memories), [])
    assert said.found and said.cited_ids == ["e1"] and "Subsumes" not in said.answer, said
