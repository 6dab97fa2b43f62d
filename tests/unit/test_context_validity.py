"""The Context Object tells what holds now: a replaced fact is left out (a new user's trial
found a superseded permit listed among the Constraints beside the one that replaced it)."""

from __future__ import annotations

from graphmind.context.compose import compose_context
from graphmind.llm.offline import OfflineLLM
from tests.unit.memory_items import memory

OLD = memory("permit-old", "Constraint", description="Tape lures only before 10:00", invalid_at="2025-09-26T08:00:00Z")
NEW = memory(
    "permit-new", "Constraint", description="Tape lures allowed until 12:00", valid_from="2025-09-26T08:00:00Z"
)
LATER = memory(
    "permit-next", "Constraint", description="Tape lures banned in spring", valid_from="2999-03-01T00:00:00Z"
)


def _constraints(*memories):
    context = compose_context(
        OfflineLLM(), stimulus="Can we run the tape lure at 11:00?", sender=None, identity=None, memories=list(memories)
    )
    section = context.section("constraints")
    return section.text, section.node_ids


def test_a_replaced_or_not_yet_valid_constraint_is_left_out():
    text, cited = _constraints(OLD, NEW, LATER)
    assert "12:00" in text and "permit-new" in cited
    assert "10:00" not in text and "permit-old" not in cited
    assert "spring" not in text and "permit-next" not in cited


def test_a_constraint_without_dates_stays():
    text, _ = _constraints(memory("c", "Constraint", description="Tape lures only before 10:00"))
    assert "10:00" in text
