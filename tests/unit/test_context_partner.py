"""Who I Am reads as a sentence whatever form a partnership's duration takes (a new user's trial
read "Partner to Gus for since April")."""

from __future__ import annotations

from graphmind.context.compose import compose_context
from graphmind.llm.offline import OfflineLLM
from graphmind.text import for_duration
from tests.unit.memory_items import memory


def _identity(**partner) -> str:
    gus = memory("gus", "Partnership", partner_name="Gus", **partner)
    context = compose_context(
        OfflineLLM(), stimulus="Gus: which fluid for the Magura?", sender="Gus", identity=None, memories=[gus]
    )
    assert context.validation.valid, context.validation
    return context.section("identity").text


def test_a_span_takes_for_and_a_starting_point_does_not():
    assert for_duration("3 years") == " for 3 years" and for_duration("a decade") == " for a decade"
    assert for_duration("since April") == ", since April" and for_duration("") == ""
    assert "Partner to Gus, since April" in _identity(duration="since April")
    assert "Partner to Gus for six months" in _identity(duration="six months")


def test_a_shared_history_list_is_joined_as_a_list():
    text = _identity(shared_history=["the brake night", "the wheel clinic", "the swap meet"])
    assert "the brake night, the wheel clinic and the swap meet" in text, text
