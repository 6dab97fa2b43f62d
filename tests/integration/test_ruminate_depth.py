"""Depth (issue 21, item 2): a memory two typed hops from what the stimulus names is found and
cited; with the second edge removed it is not claimed; an off-topic stimulus stops at once."""

from __future__ import annotations

import anthropic
import pytest

from graphmind.llm.anthropic import AnthropicLLM
from graphmind.mind import Mind
from tests.fixtures.messages_stub import MessagesStub

from .helpers import node, run_cli, write_jsonl
from .test_ruminate_claude import ClaudeLike

pytestmark = pytest.mark.integration

STIMULUS = "The rye sourdough starter at the Harbour Street bakery went sluggish overnight."


def _rows(*, with_lesson_edge: bool = True) -> list[dict]:
    rows = [
        node("Identity", "me", name="Odile", role="head baker", focus_area="bread quality"),
        node(
            "Technical_Context",
            "tc-starter",
            component="Harbour Street bakery rye sourdough starter",
            issue_type="slow rise",
            description="The rye sourdough starter at Harbour Street rises slowly after cold nights",
            status="watching",
        ),
        node(
            "Failed_Attempt",
            "fail-feeding",
            approach="Feeding twice as often",
            why_failed="Diluted the culture further",
        ),
        node(
            "Strategy_Pattern",
            "strat-proofbox",
            approach="Warm proofing cabinet at twenty six degrees until the culture doubles",
            success_rate=0.8,
            applicability="Cultures that lag after cold nights",
        ),
        node(
            "Strategy_Pattern",
            "strat-ovens",
            approach="Rotate oven cleaning across weekday closing shifts",
            success_rate=0.7,
            applicability="Kitchen upkeep",
        ),
        {"type": "edge", "rel": "ATTEMPTED_ON", "from": "fail-feeding", "to": "tc-starter", "properties": {}},
    ]
    if with_lesson_edge:
        rows.append(
            {"type": "edge", "rel": "LEARNED_FROM", "from": "strat-proofbox", "to": "fail-feeding", "properties": {}}
        )
    return rows


def _cited(result) -> set[str]:
    return {i for s in result.context.sections for i in s.node_ids}


def test_a_strategy_two_hops_away_is_found(mind, tmp_path):
    mind.import_jsonl(write_jsonl(tmp_path / "d.jsonl", _rows()))
    result = mind.ruminate(STIMULUS)
    assert {"tc-starter", "fail-feeding", "strat-proofbox"} <= _cited(result)
    assert "strat-ovens" not in _cited(result)
    assert "LEARNED_FROM fail-feeding" in result.coverage["relevance"]["strat-proofbox"]
    assert any(s.kind == "depth" and "strat-proofbox" in s.found_ids for s in result.steps)
    assert "proofing cabinet" in result.context_markdown.lower()


def test_without_the_second_edge_it_is_not_claimed(mind, tmp_path):
    mind.import_jsonl(write_jsonl(tmp_path / "d.jsonl", _rows(with_lesson_edge=False)))
    result = mind.ruminate(STIMULUS)
    assert {"tc-starter", "fail-feeding"} <= _cited(result)
    assert "strat-proofbox" not in _cited(result)
    assert "proofing cabinet" not in result.context_markdown.lower()


def test_an_off_topic_stimulus_stops_at_once(mind, tmp_path):
    mind.import_jsonl(write_jsonl(tmp_path / "d.jsonl", _rows()))
    result = mind.ruminate("Which hiking boots suit a wet autumn in the fells?")
    assert result.stopped_reason == "nothing_on_topic" and len(result.steps) == 1
    assert not _cited(result) - {"me"}


def test_cli_finds_the_strategy_two_hops_away(cli_env, cli_mind, capsys, tmp_path):
    code, _, err = run_cli(capsys, "import", str(write_jsonl(tmp_path / "d.jsonl", _rows())), "--mind", cli_mind)
    assert code == 0, err
    code, out, err = run_cli(capsys, "ruminate", STIMULUS, "--mind", cli_mind)
    assert code == 0, err
    assert "proofing cabinet" in out.lower()


def test_the_v2_signals_are_recomputed_per_step(mind, tmp_path):
    rows = _rows()
    rows.append(node("Strategy_Pattern", "strat-lonely", approach="A rye sourdough starter log kept on paper"))
    mind.import_jsonl(write_jsonl(tmp_path / "d.jsonl", rows))
    result = mind.ruminate(STIMULUS)
    structural = [s.signals["structural"] for s in result.steps]
    assert len(set(structural)) > 1, structural  # what each step energised changes the picture
    assert result.signals == result.steps[-1].signals or result.steps[-1].kind == "guard"


@pytest.mark.parametrize("with_lesson_edge", [True, False])
def test_through_a_claude_like_dreamer_the_two_hop_strategy_is_found_only_when_linked(
    store, settings, mind, tmp_path, with_lesson_edge
):
    stub = MessagesStub().start()
    claude = ClaudeLike()
    stub.responder = claude
    client = anthropic.Anthropic(base_url=stub.url, api_key="test", max_retries=0, timeout=10)
    try:
        llm = AnthropicLLM(client, model="claude-stub-1", prices={"claude-stub-1": (200.0, 1000.0)})
        mind.import_jsonl(write_jsonl(tmp_path / "d.jsonl", _rows(with_lesson_edge=with_lesson_edge)))
        result = Mind(mind.name, store, settings, llm=llm).ruminate(STIMULUS)
    finally:
        client.close()
        stub.stop()
    assert claude.prompts and all("V2 gaps" in p for p in claude.prompts if "Gap Detection" in p)
    assert ("strat-proofbox" in _cited(result)) is with_lesson_edge
    assert "strat-ovens" not in _cited(result) and "tc-starter" in _cited(result)
