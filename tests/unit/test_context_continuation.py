"""A weak, name-only match is never framed as a continuation (issue 21, item 2): the form check
catches the spec's own phrase and abstract paraphrases when relevance marks the match weak, and
lets them be when the stimulus is on topic."""

from __future__ import annotations

import pytest

from graphmind.context import checks
from graphmind.context.assemble import assemble
from graphmind.context.compose import compose_context
from graphmind.errors import GroundingError
from graphmind.llm.offline import OfflineLLM
from graphmind.prompts.context import ContextSections
from tests.unit.memory_items import memory as _m

LENA = _m("p-lena", "Partnership", partner_name="Lena", duration="2 years")
SITE = _m("conv-site", "Conversation_Memory", topic="clinic website opening hours", message_count=3)
STIMULUS = "Lena: do you know a good dentist near the station?"
FRAMINGS = [
    "This continues our discussion about clinic website opening hours.",
    "Continuing our conversation about the clinic website opening hours.",
    "Picking up where we left off on the clinic website opening hours.",
    "Following up on our earlier conversation about clinic website opening hours.",
    "As we discussed, the clinic website opening hours come first.",
    "Back to our earlier chat about clinic website opening hours.",
    "This builds on our last exchange about clinic website opening hours.",
    "Our ongoing conversation about clinic website opening hours.",
]
GROUNDED = [
    "Lena last spoke about clinic website opening hours; nothing in memory about dentist, station.",
    "Lena asks about a dentist near the station; the clinic website opening hours were the last topic.",
    "The discussion of opening hours is not continued here.",
]


def _draft(situation: str) -> ContextSections:
    return ContextSections(
        identity="Partner to Lena for 2 years.",
        current_situation=f'Lena says: "{STIMULUS}"\n\n{situation}',
        relevant_history="No conversation history found in the graph.",
        strategic_direction="No strategy data found in the graph.",
        emotional_resonance="No emotional data found in the graph.",
        technical_context="No technical data found in the graph.",
        constraints="No constraints found in the graph.",
    )


def _assemble(situation: str, *, weak: bool):
    return assemble(
        _draft(situation), stimulus=STIMULUS, sender="Lena", identity=None, memories=[LENA, SITE], weak_match=weak
    )


@pytest.mark.parametrize("framing", FRAMINGS)
def test_a_continuation_of_a_weak_match_is_rejected_in_any_wording(framing):
    with pytest.raises(GroundingError, match="frames a weak match as a continuation"):
        _assemble(framing, weak=True)
    assert _assemble(framing, weak=False).validation.composer == "llm"  # on topic, the framing may stand


@pytest.mark.parametrize("wording", GROUNDED)
def test_grounded_wordings_of_a_weak_match_pass(wording):
    assert checks.continuation(wording) is None
    assert _assemble(wording, weak=True).validation.composer == "llm"


class _Drafting(OfflineLLM):
    """Offline, but its Context Object draft is a continuation framing."""

    def generate(self, prompt, inputs, **kwargs):
        if prompt.name == "context.compose":
            return _draft(FRAMINGS[2])
        return super().generate(prompt, inputs, **kwargs)


def test_compose_falls_back_to_the_grounded_weak_wording():
    context = compose_context(
        _Drafting(), stimulus=STIMULUS, sender="Lena", identity=None, memories=[LENA, SITE],
        weak_ids=["conv-site"], unknown_terms=["dentist", "station"],
    )  # fmt: skip
    assert context.validation.composer == "template"
    assert [i.kind for i in context.validation.rejected_draft] == ["form"]
    situation = context.section("current_situation").text
    assert "Lena last spoke about clinic website opening hours; nothing in memory about dentist, station." in situation
    assert checks.continuation(context.to_markdown()) is None
    on_topic = compose_context(
        _Drafting(), stimulus=STIMULUS, sender="Lena", identity=None, memories=[LENA, SITE]
    )  # the conversation is on topic here (not weak): the framing stands
    assert on_topic.validation.composer == "llm"
