"""A rich mind fills the Context Object, a thin one says it holds less (issue 21, item 4).

tests/data/ruminate/choir.jsonl is a community choir's director with much on one problem (the
tenors going flat in the Requiem's second movement: three conversations, two strategies, one of
them two typed hops away, two failures, two feelings, three constraints, three files) beside a
second partner, look-alikes and an unrelated incident; choir_thin.jsonl is the same director
holding one conversation on it. Through ``Mind.ruminate()`` and ``graphmind ruminate`` on the
real Neo4j, offline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import run_cli

pytestmark = pytest.mark.integration

DATA = Path(__file__).resolve().parents[1] / "data" / "ruminate"
LABELS = json.loads((DATA / "labels.json").read_text())["choir.jsonl"]
ON_TOPIC = next(case for case in LABELS if case["kind"] == "on-topic")
STIMULUS, SENDER = ON_TOPIC["stimulus"], ON_TOPIC["sender"]


def _cited(sections) -> set[str]:
    return {i for s in sections for i in s.node_ids} - {"me"}


def test_a_rich_mind_lands_between_1500_and_2500_tokens_of_relevant_material(mind):
    mind.import_jsonl(DATA / "choir.jsonl")
    result = mind.ruminate(STIMULUS, sender=SENDER)
    context = result.context
    assert 1_500 <= context.token_count <= 2_500, context.token_count
    assert context.note == "" and not context.validation.short and context.validation.valid
    assert context.validation.trimmed == []
    cited = _cited(context.sections)
    assert set(ON_TOPIC["must"]) <= cited, set(ON_TOPIC["must"]) - cited
    assert not cited & set(ON_TOPIC["must_not"])
    strategy = context.section("strategic_direction")
    assert {"strat-sectional", "strat-drone"} <= set(strategy.node_ids)  # the drone is two typed hops away
    assert "Approach: Sing the passage over a sustained tonic drone" in strategy.text
    assert {"emo-worry", "emo-resolve"} <= set(context.section("emotional_resonance").node_ids)
    assert len(result.steps) <= 12


def test_a_thin_mind_says_it_holds_less_and_is_not_padded(mind):
    mind.import_jsonl(DATA / "choir_thin.jsonl")
    context = mind.ruminate(STIMULUS, sender=SENDER).context
    assert context.token_count < 1_500 and context.validation.short and context.validation.valid
    assert context.note.startswith("_This context is shorter than 1,500 tokens because the mind holds only 2 memories")
    assert _cited(context.sections) == {"p-osk", "conv-osk-flat"}
    for key, sentence in (
        ("strategic_direction", "No strategy data found in the graph."),
        ("emotional_resonance", "No emotional data found in the graph."),
        ("technical_context", "No technical data found in the graph."),
        ("constraints", "No constraints found in the graph."),
    ):
        assert context.section(key).text == sentence
    assert "minibus" not in context.to_markdown()  # the unrelated incident does not fill it
    assert context.token_count < 500


def test_cli_ruminate_on_the_rich_and_the_thin_mind(cli_env, cli_mind, other_mind, capsys):
    code, _, err = run_cli(capsys, "import", str(DATA / "choir.jsonl"), "--mind", cli_mind)
    assert code == 0, err
    code, out, err = run_cli(capsys, "ruminate", STIMULUS, "--mind", cli_mind, "--sender", SENDER, "--json")
    assert code == 0, err
    rich = json.loads(out)
    assert 1_500 <= rich["token_count"] <= 2_500 and rich["validation"]["valid"]
    assert not rich["validation"]["short"] and "shorter than" not in rich["context_markdown"]
    assert "strat-drone" in {i for s in rich["sections"] for i in s["node_ids"]}
    code, _, err = run_cli(capsys, "import", str(DATA / "choir_thin.jsonl"), "--mind", other_mind.name)
    assert code == 0, err
    code, out, err = run_cli(capsys, "ruminate", STIMULUS, "--mind", other_mind.name, "--sender", SENDER, "--json")
    assert code == 0, err
    thin = json.loads(out)
    assert thin["token_count"] < 1_500 and thin["validation"]["short"]
    assert "because the mind holds only 2 memories relevant to this stimulus" in thin["context_markdown"]
