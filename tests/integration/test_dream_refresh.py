"""A pattern some of whose experiences were superseded is extracted again by the next dream,
from the experiences that still hold, and the abstractions above it are named again
(graphmind.dream.refresh): the replaced fact no longer reads as current knowledge."""

from __future__ import annotations

import pytest

from .helpers import run_cli

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


def test_a_pattern_whose_examples_state_a_replaced_fact_is_extracted_again(mind, cli_env, capsys):
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
    assert _pattern(mind).get("stale_since") is not None and _pattern(mind)["verification_status"] != "invalidated"
    (match,) = mind.query_knowledge("humidity limit to close the dome", k=1)
    assert match.stale is not None and match.stale.startswith("examples superseded since 20")  # said until the dream
    code, out, err = run_cli(capsys, "knowledge", "humidity limit to close the dome", "--mind", mind.name)
    assert code == 0 and "(stale: examples superseded since" in out, err
    mind.dream()
    assert mind.query_knowledge("humidity limit to close the dome", k=1)[0].stale is None
    props = _pattern(mind)
    assert "stale_since" not in props, props
    assert set(props["examples"]) <= {"dew-2", "dew-3", "rule-80"}, props["examples"]  # only what holds
    assert not any("85" in t for t in _texts(mind)), _texts(mind)  # nor the ladder above it


def test_a_pattern_whose_every_example_was_replaced_is_told_anew_when_a_new_telling_joins(mind):
    """Every telling superseded (invalidated, stale); the technique told again without the old
    figure joins it: the pattern holds again, and says what the new telling says."""
    strategy = "close the dome for humidity"
    mind.capture_many(
        [{"id": i, "description": t, "outcome": "success", "strategy_used": strategy} for i, t in TELLINGS[:2]]
        + [
            {
                "id": "dew-9",
                "description": TELLINGS[1][1].replace("after midnight", "at dusk"),
                "outcome": "success",
                "strategy_used": strategy,
            }
        ]
    )
    mind.dream()
    assert any("85" in t for t in _texts(mind)), _texts(mind)
    rule = {"id": "rule-80", "description": "The humidity limit for the dome is 80 percent now", "outcome": "success"}
    mind.capture(rule, supersedes=["rule-85", "dew-1", "dew-9"])
    assert _pattern(mind)["verification_status"] == "invalidated"
    again = "Closed the dome for rising humidity and parked the telescope until it dropped"
    mind.capture({"id": "dew-10", "description": again, "outcome": "success", "strategy_used": strategy})
    mind.dream()
    props = _pattern(mind)
    assert props["verification_status"] != "invalidated" and "invalid_at" not in props, props
    assert "stale_since" not in props and "dew-10" in props["examples"], props
    assert set(props["examples"]) <= {"dew-10", "rule-80"}, props["examples"]  # what holds, the newer rule too
    assert not any("85" in t for t in _texts(mind)), _texts(mind)


def test_a_fact_replaced_from_a_later_date_makes_the_pattern_stale_only_from_then(mind):
    strategy = "close the dome for humidity"
    mind.capture_many(
        [{"id": i, "description": t, "outcome": "success", "strategy_used": strategy} for i, t in TELLINGS]
    )
    mind.dream()
    later = {
        "id": "rule-80",
        "description": "From next year the dome closes at 80 percent humidity",
        "outcome": "success",
        "valid_from": "2099-01-01T00:00:00+00:00",
    }
    mind.capture(later, supersedes=["rule-85"])
    before = _pattern(mind)
    assert before["stale_since"].year == 2099  # stale from then, not now
    mind.dream()  # the replaced experience still holds today: nothing to extract again yet
    assert _pattern(mind)["stale_since"] == before["stale_since"] and _pattern(mind)["name"] == before["name"]
    now = {"id": "dew-rule", "description": "Dew point alarm now closes the dome", "outcome": "success"}
    mind.capture(now, supersedes=["dew-1"])  # a replacement from now: stale from now, the earlier moment
    assert _pattern(mind)["stale_since"].year < 2099
    mind.dream()  # extracted again; stale again from when the later replacement takes effect
    assert _pattern(mind)["stale_since"] == before["stale_since"]


def test_a_new_pattern_is_not_worded_from_experiences_superseded_before_its_dream(mind):
    """The tellings of the old limit are replaced while they wait for their first dream: the
    pattern that dream makes is worded from those that still hold."""
    strategy = "close the dome for humidity"
    mind.capture_many(
        [{"id": i, "description": t, "outcome": "success", "strategy_used": strategy} for i, t in TELLINGS]
    )
    new = "Closed the dome when the humidity passed 80 percent, the new limit, and parked the telescope"
    mind.capture(
        {"id": "rule-80", "description": new, "outcome": "success", "strategy_used": strategy},
        supersedes=["rule-85", "dew-1"],
    )
    mind.dream()
    props = _pattern(mind)
    assert {"rule-85", "dew-1"}.isdisjoint(props["examples"]), props["examples"]
    assert not any("85" in t for t in _texts(mind)), _texts(mind)
