"""Depth hop by hop (issue 21, item 2): a rich mind whose most useful material lies two and
three typed hops from what the stimulus names is explored one hop per step, each step saying
what it added; a thin mind stays at one or two steps.

tests/data/ruminate/bakery.jsonl is a village bakery: the rye loaves come out dense (on topic),
CAUSED by a sluggish culture (one hop), CAUSED by the storeroom that turned cold when the boiler
was replaced (two typed hops), ADDRESSED by keeping the culture in the proving cabinet (three
typed hops, and LEARNED_FROM the failed warm-water feeding two hops back); none of the chain
shares the stimulus's words. Beside it a second partner, look-alikes and an unrelated flood.
bakery_thin.jsonl holds one conversation on the problem. Offline, on the real Neo4j."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

DATA = Path(__file__).resolve().parents[1] / "data" / "ruminate"
ON_TOPIC = next(c for c in json.loads((DATA / "labels.json").read_text())["bakery.jsonl"] if c["kind"] == "on-topic")
CHAIN = ("tc-starter", "tc-storeroom", "strat-cabinet")


def _cited(result) -> set[str]:
    return {i for s in result.context.sections for i in s.node_ids} - {"me"}


def test_a_rich_mind_follows_its_chain_one_hop_per_step(mind):
    mind.import_jsonl(DATA / "bakery.jsonl")
    result = mind.ruminate(ON_TOPIC["stimulus"], sender=ON_TOPIC["sender"])
    cited = _cited(result)
    assert set(ON_TOPIC["must"]) <= cited, set(ON_TOPIC["must"]) - cited
    assert not cited & set(ON_TOPIC["must_not"])
    assert "ADDRESSES tc-storeroom" in result.coverage["relevance"]["strat-cabinet"]
    depth = [s for s in result.steps if s.kind == "depth"]
    found_at = {i: s.number for s in depth for i in s.relevant_new}
    assert all(i in found_at for i in CHAIN), found_at
    assert found_at["tc-starter"] < found_at["tc-storeroom"] < found_at["strat-cabinet"]  # one hop per step
    assert all(s.new_ids and s.relevant_new for s in depth[:-1])  # no padding: each adds what it says
    assert all(s.synthesis.startswith("Hop ") and s.query.startswith("find_neighbours (hop ") for s in depth)
    assert 3 <= len(result.steps) <= 8
    assert "proving cabinet" in result.context.section("strategic_direction").text


def test_a_thin_mind_takes_one_or_two_steps(mind):
    mind.import_jsonl(DATA / "bakery_thin.jsonl")
    result = mind.ruminate(ON_TOPIC["stimulus"], sender=ON_TOPIC["sender"])
    assert len(result.steps) <= 2
    assert _cited(result) == {"p-marta", "conv-marta-rye"}


def test_off_topic_and_name_only_stimuli_stay_short(mind):
    mind.import_jsonl(DATA / "bakery.jsonl")
    for case in json.loads((DATA / "labels.json").read_text())["bakery.jsonl"]:
        if case["kind"] != "on-topic":
            result = mind.ruminate(case["stimulus"], sender=case["sender"])
            assert len(result.steps) <= 2, case["kind"]
            assert not _cited(result) & set(case["must_not"]), case["kind"]
