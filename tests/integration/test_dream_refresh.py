"""A pattern some of whose experiences were superseded is extracted again by the next dream,
from the experiences that still hold, and the abstractions above it are named again
(graphmind.dream.refresh): the replaced fact no longer reads as current knowledge."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.integration

TELLINGS = [
    ("rule-85", "Closed the dome when the weather station humidity passed 85 percent, then parked the telescope"),
    ("dew-1", "Humidity passed 85 percent after midnight: closed the dome and parked the telescope"),
    ("dew-2", "Closed the dome for rising humidity and parked the telescope until it dropped"),
    ("dew-3", "Dew on the secondary mirror as the humidity rose: closed the dome and parked the telescope"),
]


def _texts(mind) -> list[str]:
    rows = mind.store.read("dream/list_patterns", mind=mind.name)
    ladder = mind.store.read("dream/list_abstractions", mind=mind.name)
    return [" ".join(map(str, [r["name"], r["description"], *r["conditions"], *r["actions"]])) for r in rows] + [
        f"{r.get('name')} {r.get('generalization')}" for r in ladder
    ]


def _pattern(mind) -> dict:
    (row,) = mind.store.read("dream/list_patterns", mind=mind.name)
    return mind.store.read("memory/get_node", mind=mind.name, id=row["id"])[0]["props"]


def test_a_pattern_whose_examples_state_a_replaced_fact_is_extracted_again(mind):
    strategy = "close the dome for humidity"
    mind.capture_many(
        [{"id": i, "description": t, "outcome": "success", "strategy_used": strategy} for i, t in TELLINGS]
    )
    mind.dream()
    assert any("85" in t for t in _texts(mind)), _texts(mind)  # the fact is part of the knowledge
    rule = {
        "id": "rule-80",
        "description": "New rule: close the dome when the humidity passes 80 percent",
        "outcome": "success",
    }
    mind.capture(rule, supersedes=["rule-85", "dew-1"])  # the limit changed: its two tellings are replaced
    assert _pattern(mind).get("stale") is True and _pattern(mind)["verification_status"] != "invalidated"
    mind.dream()
    props = _pattern(mind)
    assert "stale" not in props, props
    assert set(props["examples"]) <= {"dew-2", "dew-3"}, props["examples"]  # only what still holds
    assert not any("85" in t for t in _texts(mind)), _texts(mind)  # nor the ladder above it
