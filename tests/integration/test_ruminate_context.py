"""The Context Object of a real rumination (issue 21, item 4): "Dependencies" from the graph's
edges, deadlines whole with their offset and seconds, the short-context note, through
``Mind.ruminate`` and ``graphmind ruminate``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .helpers import node, run_cli, write_jsonl

pytestmark = pytest.mark.integration

STIMULUS = "The irrigation pump controller in the east greenhouse stalled again."


def _rows() -> list[dict[str, Any] | str]:
    return [
        node(
            "Technical_Context",
            "tc-pump",
            component="pump_controller.ini",
            issue_type="stall",
            description="The irrigation pump controller stalls in the east greenhouse",
            status="investigating",
        ),
        node("Code_Reference", "code-valves", file_path="greenhouse/valves.ini", complexity="high"),
        node("Code_Reference", "code-timer", file_path="greenhouse/timer.ini"),
        node("Code_Reference", "code-lights", file_path="greenhouse/lights.ini", complexity="high"),
        node(
            "Constraint",
            "cons-seedlings",
            constraint_type="deadline",
            severity="critical",
            description="Seedlings in the east greenhouse need water before the heat",
            deadline="2026-06-02T06:30:45+02:00",
            impact="The irrigation pump stall kills the seedlings",
        ),
        {"type": "edge", "rel": "DEPENDS_ON", "from": "tc-pump", "to": "code-valves", "properties": {}},
        {"type": "edge", "rel": "DEPENDS_ON", "from": "tc-pump", "to": "code-timer", "properties": {}},
        {"type": "edge", "rel": "REFERENCES", "from": "tc-pump", "to": "code-lights", "properties": {}},
        {"type": "edge", "rel": "PRESSURES", "from": "cons-seedlings", "to": "tc-pump", "properties": {}},
    ]


def _check(markdown: str, validation: dict) -> None:
    listed = markdown.split("Dependencies: 2 files\n")[1].split("\n\n")[0].splitlines()
    assert sorted(listed) == ["- greenhouse/timer.ini", "- greenhouse/valves.ini (high complexity)"]
    assert "greenhouse/lights.ini (high complexity)" not in markdown  # linked, but not a dependency
    assert "- Deadline: Jun 2, 2026 06:30:45 UTC+02:00" in markdown
    assert "This context is shorter than 1,500 tokens" in markdown
    assert validation["valid"] and validation["short"] and validation["problems"] == []


def test_mind_ruminate_dependencies_deadline_and_note(mind, tmp_path):
    mind.import_jsonl(write_jsonl(tmp_path / "g.jsonl", _rows()))
    result = mind.ruminate(STIMULUS)
    _check(result.context_markdown, result.context.validation.model_dump())


def test_cli_ruminate_dependencies_deadline_and_note(cli_env, cli_mind, capsys, tmp_path):
    code, out, err = run_cli(capsys, "import", str(write_jsonl(tmp_path / "g.jsonl", _rows())), "--mind", cli_mind)
    assert code == 0, err
    code, out, err = run_cli(capsys, "ruminate", STIMULUS, "--mind", cli_mind, "--json")
    assert code == 0, err
    payload = json.loads(out)
    _check(payload["context_markdown"], payload["validation"])


def _partner_rows() -> list[dict[str, Any] | str]:
    return [
        *_rows(),
        node("Partnership", "p-ines", partner_name="Ines", duration="3 seasons", trust_level=0.8),
        node(
            "Conversation_Memory",
            "conv-grafts",
            topic="grafting the apricot rootstock",
            timestamp="2026-05-20T09:00:00+00:00",
            message_count=7,
            key_points=["Scions arrive Friday"],
        ),
        node(
            "Technical_Context",
            "tc-mower",
            component="mower.ini",
            issue_type="blade wear",
            description="The orchard mower blade wears unevenly",
            status="open",
        ),
        {"type": "edge", "rel": "INVOLVES", "from": "conv-grafts", "to": "p-ines", "properties": {}},
        {"type": "edge", "rel": "INVOLVES", "from": "tc-mower", "to": "p-ines", "properties": {}},
    ]


WEAK = "Ines, could you order more beeswax candles for the farm shop?"


def _check_weak(markdown: str, relevance: dict) -> None:
    assert "Ines last spoke about grafting the apricot rootstock; nothing in memory about" in markdown
    assert "continues" not in markdown and "mower" not in markdown and "pump" not in markdown
    assert relevance["conv-grafts"].startswith("kept as weak")
    # never returned, or returned and dropped
    assert relevance.get("tc-mower", "dropped").startswith("dropped")
    assert relevance.get("tc-pump", "dropped").startswith("dropped")


def test_mind_a_name_only_match_is_stated_as_what_it_is(mind, tmp_path):
    mind.import_jsonl(write_jsonl(tmp_path / "p.jsonl", _partner_rows()))
    result = mind.ruminate(WEAK, sender="Ines")
    _check_weak(result.context_markdown, result.coverage["relevance"])


def test_cli_a_name_only_match_is_stated_as_what_it_is(cli_env, cli_mind, capsys, tmp_path):
    code, out, err = run_cli(
        capsys, "import", str(write_jsonl(tmp_path / "p.jsonl", _partner_rows())), "--mind", cli_mind
    )
    assert code == 0, err
    code, out, err = run_cli(capsys, "ruminate", WEAK, "--mind", cli_mind, "--sender", "Ines", "--json")
    assert code == 0, err
    payload = json.loads(out)
    _check_weak(payload["context_markdown"], payload["coverage"]["relevance"])


def test_a_dreamt_pattern_whose_success_rate_is_not_a_round_percent_is_stated_grounded(mind):
    """A dream's patterns carry rates such as 2/3 or 0.5312; the Context Object prints them
    rounded (67%), and the grounding check must hold that, not refuse the whole rumination
    (the 1M-memory scale bench did, on a pattern at 53.12%)."""
    from graphmind.dream import DreamParams

    tries = [
        ("success", "Warmed the espresso cups with hot water before pulling the shot"),
        ("success", "Pre-heated the espresso cups with hot water so the shot stayed warm"),
        ("failure", "Warmed the espresso cups with hot water but the shot still cooled fast"),
    ]
    mind.capture_many(
        [
            {"id": f"cup-{i}", "description": text, "outcome": outcome, "strategy_used": "warm the cups"}
            for i, (outcome, text) in enumerate(tries)
        ]
    )
    report = mind.dream(DreamParams(domain="coffee making"))
    rates = [p["success_rate"] for p in report.new_patterns if p.get("success_rate") is not None]
    assert rates and any(round(r * 100) != r * 100 for r in rates)  # a rate that is not a whole percent
    result = mind.ruminate("should I warm the espresso cups with hot water before the shot?")
    assert f"{round(rates[0] * 100)}%" in result.context.section("strategic_direction").text
