"""The Context Object's form rules, trimming by units, dependencies from edges and whole
deadlines (issue 21, item 4), on an orchard keeper's memories."""

from __future__ import annotations

import pytest

from graphmind.context import checks
from graphmind.context.assemble import TRIM_MARK, assemble
from graphmind.context.templates import compose, deadline_text
from graphmind.errors import GroundingError
from graphmind.prompts._models import MemoryItem
from graphmind.prompts.context import ContextInput, Dependency
from tests.unit.memory_items import memory as _m

STIMULUS = "Ines, the frost alarm in the north orchard went off again."
IDENTITY = MemoryItem(
    id="me",
    label="Identity",
    text="Tobias, orchard keeper",
    properties={"name": "Tobias", "role": "orchard keeper", "focus_area": "frost protection"},
)


PARTNER = _m("ines", "Partnership", partner_name="Ines", duration="3 seasons", trust_level=0.8)
FROST = _m(
    "tc-frost",
    "Technical_Context",
    component="north orchard frost alarm",
    description="Frost alarm sensor trips at dawn",
    status="investigating",
)
SENSOR = _m("code-sensor", "Code_Reference", file_path="alarm/sensor.ini", complexity="high")
RELAY = _m("code-relay", "Code_Reference", file_path="alarm/relay.ini")
PRESS = _m("code-press", "Code_Reference", file_path="cider/press.ini", complexity="high")


def _context(memories, *, dependencies=(), budget=2500, draft=None, composer="template"):
    inputs = ContextInput(
        stimulus=STIMULUS, sender="Ines", identity=IDENTITY, memories=memories, dependencies=list(dependencies)
    )
    return assemble(
        draft or compose(inputs),
        stimulus=STIMULUS,
        sender="Ines",
        identity=IDENTITY,
        memories=memories,
        budget=budget,
        composer=composer,
    )


def test_the_templates_pass_every_form_rule_and_a_short_context_says_why():
    context = _context([PARTNER, FROST])
    assert context.validation.valid and context.validation.problems == []
    assert context.validation.short and context.token_count < checks.MIN_TOKENS
    assert context.note.startswith("_This context is shorter than 1,500 tokens")
    assert "2 memories" in context.note and context.to_markdown().splitlines()[2] == context.note


@pytest.mark.parametrize(
    ("section", "text", "problem"),
    [
        ("identity", "I am a helpful assistant.", "generic"),
        ("identity", "Orchard keeper focused on frost protection.", "does not name Tobias"),
        ("current_situation", "Ines says the frost alarm went off.", "not quoted"),
        ("technical_context", "[tc-frost] (Technical_Context) Frost alarm sensor trips", "dumps"),
        ("technical_context", "component: north orchard frost alarm\nstatus: investigating", "dumps"),
        ("constraints", '{"deadline": "2026-03-01"}', "dumps"),
    ],
)
def test_each_form_rule_rejects_its_case(section, text, problem):
    texts = {
        "identity": "Tobias, orchard keeper.",
        "current_situation": f'Ines says: "{STIMULUS}"',
        "technical_context": "Component: north orchard frost alarm",
        "constraints": "None.",
    }
    assert checks.problems(texts, stimulus=STIMULUS, identity_name="Tobias", note="x", tokens=10) == []
    found = checks.problems({**texts, section: text}, stimulus=STIMULUS, identity_name="Tobias", note="x", tokens=10)
    assert [k for k, _ in found] == [section] and problem in found[0][1]


def _document(**kwargs):
    return [what for key, what in checks.problems({}, stimulus="", identity_name=None, **kwargs) if key == "document"]


def test_padding_rules_fail_both_ways():
    assert _document(tokens=900) == ["under 1,500 tokens without saying why"]
    assert _document(note="short", tokens=1800) == ["says it is short at 1,800 tokens"]
    assert _document(tokens=900, trimmed=True) == [] and _document(note="short", tokens=900) == []


def test_an_llm_draft_with_a_generic_identity_is_refused():
    good = compose(ContextInput(stimulus=STIMULUS, sender="Ines", identity=IDENTITY, memories=[PARTNER]))
    bad = good.model_copy(update={"identity": "A helpful assistant for the orchard."})
    with pytest.raises(GroundingError, match="generic"):
        _context([PARTNER], draft=bad, composer="llm")


def test_dependencies_come_from_edges_not_from_complexity():
    edges = [
        Dependency(source="tc-frost", rel="DEPENDS_ON", target="code-sensor"),
        Dependency(source="code-sensor", rel="IMPORTS", target="code-relay"),
    ]
    text = _context([FROST, SENSOR, RELAY, PRESS], dependencies=edges).section("technical_context").text
    assert "Dependencies: 2 files\n- alarm/sensor.ini (high complexity)\n- alarm/relay.ini" in text
    assert "cider/press.ini (high" not in text  # complex, but nothing depends on it
    none = _context([FROST, SENSOR, PRESS]).section("technical_context").text
    assert "Dependencies" not in none


def test_deadlines_keep_their_offset_and_seconds():
    assert deadline_text("2026-03-01T05:45:30+05:30") == "Mar 1, 2026 05:45:30 UTC+05:30"
    assert deadline_text("2026-03-01T05:45:00-04:00") == "Mar 1, 2026 05:45 UTC-04:00"
    assert deadline_text("2026-03-01T05:45:00+00:00") == "Mar 1, 2026 05:45 UTC"
    frost_cover = _m(
        "c-cover",
        "Constraint",
        constraint_type="deadline",
        severity="critical",
        description="Frost cover on the north rows",
        deadline="2026-03-01T05:45:30+05:30",
        impact="Blossom lost",
    )
    context = _context([frost_cover])
    assert "- Deadline: Mar 1, 2026 05:45:30 UTC+05:30" in context.section("constraints").text
    assert context.validation.valid


def _busy_mind() -> list[MemoryItem]:
    constraints = [
        _m(
            f"c-{i}",
            "Constraint",
            constraint_type="deadline",
            severity="high",
            description=d,
            deadline=f"2026-03-0{i + 1}T0{i}:30:15+01:00",
            impact="Harvest at risk",
        )
        for i, d in enumerate(
            ["Frost alarm service in the north orchard", "Invoice for the cider press", "Hive inspection paperwork"]
        )
    ]
    talks = [
        _m(
            f"conv-{i}",
            "Conversation_Memory",
            topic=t,
            timestamp=f"2026-02-1{i}T10:00:00+00:00",
            message_count=4 + i,
            key_points=points,
            outcome="open",
        )
        for i, (t, points) in enumerate(
            [
                ("frost alarm false trips", ["The north orchard alarm trips at dawn", "Sensor moved twice"]),
                ("bottling schedule", ["Labels arrive late", "Corks ordered in bulk", "Crates stacked"]),
                ("market stall rota", ["Saturday stall needs two people", "Signage repainted"]),
            ]
        )
    ]
    return [PARTNER, FROST, *constraints, *talks]


def test_trimming_drops_the_least_relevant_units_keeps_deadlines_whole_and_empties_nothing():
    memories = _busy_mind()
    full = _context(memories, budget=1499)  # under the spec's minimum: no note, nothing trimmed
    assert not full.validation.trimmed and not full.note
    budget = full.token_count - 60
    context = _context(memories, budget=budget)
    assert context.validation.within_budget and context.validation.trimmed
    markdown = context.to_markdown()
    assert "north orchard alarm trips at dawn" in markdown  # relevant to the stimulus: kept
    dropped = [line for line in full.to_markdown().splitlines() if line and line not in markdown]
    assert dropped and not any("frost" in line.lower() for line in dropped)
    for section in context.sections:
        assert section.text.replace(TRIM_MARK, "").strip(), section.key
    for block in context.section("constraints").text.split("\n\n"):
        if block.startswith("DEADLINE"):
            assert "- Deadline: Mar" in block and "UTC+01:00" in block and "- Impact if violated" in block


def test_trimming_stops_as_soon_as_the_document_fits():
    memories = _busy_mind()
    full = _context(memories, budget=1499)
    context = _context(memories, budget=full.token_count - 5)
    lost = [line for line in full.to_markdown().splitlines() if line not in context.to_markdown()]
    assert 1 <= len([line for line in lost if line.strip()]) <= 2


def test_the_strategic_direction_leaves_out_consolidated_knowledge_that_no_longer_holds():
    """A retired or pruned abstraction, an invalidated pattern and one whose validity ended are
    kept in the graph but never handed to the Driver as direction; a current one is."""
    text = "Frost alarm at dawn: wrap the north orchard sensor and check its relay"
    current = _m("abs-now", "Abstraction", name="Frost alarms", generalization=text + " (current)", level=2)
    retired = _m("abs-old", "Abstraction", name="Frost", generalization=text + " (retired)", level=2, status="retired")
    pruned = _m("pat-pruned", "Pattern", name="Frost alarm", description=text + " (pruned)", status="pruned")
    ended = _m(
        "pat-ended", "Pattern", name="Alarm", description=text + " (ended)", invalid_at="2026-01-01T00:00:00+00:00"
    )
    gone = _m(
        "pat-gone", "Pattern", name="Dawn", description=text + " (invalidated)", verification_status="invalidated"
    )
    memories = [retired, pruned, ended, gone, current]
    direction = compose(ContextInput(stimulus=STIMULUS, sender="Ines", identity=IDENTITY, memories=memories))
    direction = direction.strategic_direction
    assert "(current)" in direction, direction
    assert not any(f"({x})" in direction for x in ("retired", "pruned", "ended", "invalidated")), direction
