"""Depth as the question needs it (issue 21, item 2): a thin mind stops after one or two steps
on diminishing returns, a rich one explores three or more, through Mind.ruminate and the CLI
on the real Neo4j. With the rule off (``patience=None``) the thin mind runs on through every
gap: the rule, not chance, is what stops it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from graphmind.ruminate import RuminationParams

from .helpers import node, run_cli, write_jsonl

pytestmark = pytest.mark.integration

DATA = Path(__file__).resolve().parents[1] / "data" / "ruminate"
THIN_STIMULUS = "Olaf: the ramp winch on the ferry slipped again this morning."


def _thin_rows() -> list[dict[str, Any] | str]:
    """A ferry mechanic's mind with three memories: the stimulus's winch, its partner, an identity."""
    return [
        node("Identity", "me", name="Maren", role="ferry mechanic", focus_area="harbour ferry upkeep"),
        node("Partnership", "p-olaf", partner_name="Olaf", duration="2 years", trust_level=0.7),
        node(
            "Technical_Context",
            "tc-winch",
            component="ferry ramp winch",
            issue_type="slipping clutch",
            description="The ferry ramp winch slips under load on cold mornings",
            status="open",
        ),
    ]


def test_a_thin_mind_stops_within_two_steps_on_diminishing_returns(mind, tmp_path):
    mind.import_jsonl(write_jsonl(tmp_path / "thin.jsonl", _thin_rows()))
    result = mind.ruminate(THIN_STIMULUS, sender="Olaf")
    assert len(result.steps) <= 2 and result.stopped_reason == "diminishing_returns"
    assert result.steps[-1].relevant_new == [] and result.steps[-1].gaps_closed == []
    assert "tc-winch" in {i for s in result.context.sections for i in s.node_ids}
    unbounded = mind.ruminate(THIN_STIMULUS, sender="Olaf", params=RuminationParams(patience=None))
    assert len(unbounded.steps) > 2 and unbounded.stopped_reason != "diminishing_returns"


def test_cli_a_thin_mind_stops_within_two_steps(cli_env, cli_mind, capsys, tmp_path):
    code, _, err = run_cli(capsys, "import", str(write_jsonl(tmp_path / "t.jsonl", _thin_rows())), "--mind", cli_mind)
    assert code == 0, err
    code, out, err = run_cli(capsys, "ruminate", THIN_STIMULUS, "--mind", cli_mind, "--sender", "Olaf", "--json")
    assert code == 0, err
    payload = json.loads(out)
    assert len(payload["steps"]) <= 2 and payload["stopped_reason"] == "diminishing_returns"


@pytest.mark.parametrize("file_name", ["apiary.jsonl", "theatre.jsonl", "clinic.jsonl"])
def test_labelled_minds_rich_on_topic_explores_and_weak_stops_early(mind, file_name):
    """The labelled minds of tests/data/ruminate: the on-topic stimulus (many relevant memories)
    takes at least three steps, the name-only or weak one at most two, the off-topic one one."""
    cases = json.loads((DATA / "labels.json").read_text())[file_name]
    mind.import_jsonl(DATA / file_name)
    steps = {c["kind"]: len(mind.ruminate(c["stimulus"], sender=c["sender"]).steps) for c in cases}
    weak = steps.get("weak", steps.get("name-only"))
    assert steps["on-topic"] >= 3 and weak is not None and weak <= 2 and steps["off-topic"] == 1, steps
