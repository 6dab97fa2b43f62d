"""The Claude path's pure parts (issue 21, item 3): what the continuation says before any
query, which types a step explored, and "I" in the grounding check."""

from __future__ import annotations

from graphmind.context.grounding import Sources, atoms, unsupported
from graphmind.prompts._models import MemoryItem
from graphmind.prompts.ruminate import CONTINUE, GapAnalysis, RuminationStepInput
from graphmind.ruminate.ruminator import explored_types


def _step(**changes) -> RuminationStepInput:
    gap = GapAnalysis(
        covered_types=["Partnership"],
        gap_types=["Constraint", "Failed_Attempt"],
        composite_score=0.6,
        priority_gap="Constraint",
    )
    return RuminationStepInput(stimulus="The orchard's frost alarm went off twice.", gap=gap, **changes)


def test_before_any_query_the_prompt_claims_no_result():
    text = CONTINUE.render(_step())
    assert "Query results" not in text and "\nNone\n" not in text
    assert "Nothing has been queried for this step yet" in text and "query_active_constraints" in text


def test_after_a_query_the_prompt_shows_what_came_back_even_nothing():
    empty = CONTINUE.render(_step(query="query_active_constraints()"))
    assert "Query results (query_active_constraints()):\nNone" in empty
    item = MemoryItem(id="c-frost", label="Constraint", text="Frost cover must be on by 22:00")
    shown = CONTINUE.render(_step(query="query_active_constraints()", query_results=[item]))
    assert "[c-frost] (Constraint) Frost cover must be on by 22:00" in shown


def test_a_gap_is_explored_by_its_own_query_only():
    assert explored_types("Constraint", ["query_failed_attempts"], set()) == ["Failed_Attempt"]
    assert explored_types("Constraint", [], set()) == []
    assert explored_types("Constraint", ["query_failed_attempts", "query_active_constraints"], set()) == [
        "Constraint",
        "Failed_Attempt",
    ]


def test_follow_edges_explores_the_gap_only_when_it_brings_its_type_back():
    assert explored_types("Constraint", ["follow_edges"], {"Failed_Attempt"}) == []
    assert explored_types("Constraint", ["follow_edges"], {"Constraint"}) == ["Constraint"]
    assert explored_types(None, ["follow_edges"], {"Constraint"}) == []


def test_i_mid_sentence_is_not_a_name_but_an_unknown_name_still_is():
    sources = Sources(["The orchard's frost alarm went off twice."])
    monologue = "The alarm keeps tugging at me, and I'm not sure I trust what I found; it's what I'd feared."
    assert [a for a in atoms(monologue) if a.kind == "name"] == []
    assert unsupported(monologue, sources) == []
    invented = "The alarm keeps tugging at me, and I think Ilse reset it."
    assert [a.text for a in unsupported(invented, sources)] == ["Ilse"]
    assert [a.text for a in unsupported("It rang, and ID 7 failed.", sources)] == ["7", "ID"]


def test_the_v2_gap_signals_are_shown_to_the_dreamer_when_given():
    assert "V2 gaps" not in CONTINUE.render(_step())
    signals = {"semantic": 0.71, "quality": 0.4, "structural": 0.25, "composite": 0.48, "semantic_level": "high"}
    step = _step()
    text = CONTINUE.render(step.model_copy(update={"gap": step.gap.model_copy(update={"signals": signals})}))
    assert "semantic 0.71 (high), quality 0.4, structural 0.25, composite 0.48" in text
