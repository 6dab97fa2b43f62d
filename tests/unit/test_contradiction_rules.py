"""The offline contradiction rule: the same situation, opposite advice (graphmind.dream.rules)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphmind.dream import rules
from graphmind.prompts.dream import PatternItem

DATA = Path(__file__).resolve().parents[1] / "data" / "contradictions"


def item(key: str, conditions: list[str], actions: list[str]) -> PatternItem:
    return PatternItem(id=key, description="; ".join(actions), conditions=conditions, actions=actions)


def test_opposite_actions_on_the_same_thing_contradict():
    a = item("a", ["knee pain from saddle height"], ["raise the saddle a few millimetres"])
    b = item("b", ["saddle height causing knee pain"], ["lowering the saddle helps"])
    assert rules.contradiction(a, b) is not None
    assert rules.opposed("turn the fan on", "turn the fan off")


def test_opposite_words_about_different_things_do_not():
    assert not rules.opposed("raise the pool limit", "lower the request timeout")
    assert not rules.opposed("raise and then lower the blinds", "lower the blinds")  # both words in one


def test_opposite_actions_for_different_situations_do_not_contradict():
    a = item("a", ["brownie edges dry"], ["take them out earlier"])
    b = item("b", ["brownie centre raw"], ["take them out later"])
    assert rules.contradiction(a, b) is None


@pytest.mark.parametrize("name", ["pairs", "heldout"])
def test_the_labelled_pairs_are_told_apart(name):
    """Precision 1.0 and recall >= 0.5 on both sets (negation words alone: 0.21 and 0.00)."""
    rows = [json.loads(line) for line in (DATA / f"{name}.jsonl").read_text().splitlines() if line.strip()]
    said = [rules.contradiction(item("a", **r["a"]), item("b", **r["b"])) is not None for r in rows]
    assert not any(s and not r["contradicts"] for s, r in zip(said, rows))
    assert sum(s and r["contradicts"] for s, r in zip(said, rows)) >= 0.5 * sum(r["contradicts"] for r in rows)


def test_a_particle_is_an_opposite_only_after_the_same_word():
    assert rules.opposed("scale up the workers", "scale down the workers")
    assert rules.opposed("keep the feature flag on", "turn the feature flag off")
    assert not rules.opposed("back up the database", "shut down the database")
