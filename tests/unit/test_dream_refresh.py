"""The pure parts of re-extracting a stale pattern (graphmind.dream.refresh)."""

from __future__ import annotations

import numpy as np

from graphmind.dream.items import LadderNode, PatternState, Tally
from graphmind.dream.refresh import Renamed, examples_by_pattern, refreshed
from graphmind.prompts.dream import ExtractedPattern


def _pattern() -> PatternState:
    return PatternState(
        id="p1",
        name="close at 85 percent",
        description="close at 85 percent: IF humidity passes 85 percent → THEN close the dome",
        pattern_type="technique",
        centroid=np.ones(3),
        tally=Tally(4, 0, 0, 0),
        conditions=["humidity passes 85 percent"],
        examples=["old-1", "old-2"],
        stale=True,
    )


def test_a_refreshed_pattern_takes_the_new_text_and_only_valid_examples():
    p = _pattern()
    out = ExtractedPattern(
        name="close the dome for humidity",
        pattern_type="technique",
        conditions=["humidity rising"],
        actions=["close the dome"],
        example_ids=["old-1", "new-2"],  # an id that no longer holds is not an example
    )
    refreshed(p, out, ["new-1", "new-2"], max_examples=5)
    q = _pattern()
    refreshed(q, out.model_copy(update={"example_ids": []}), ["new-1", "new-2", "new-3"], max_examples=3)
    assert q.examples == ["new-3", "new-2", "new-1"]  # the latest first when the LLM chose none
    assert p.name == "close the dome for humidity" and "85" not in p.description
    assert p.examples == ["new-2", "new-1"] and p.tally.total == 4  # statistics unchanged
    assert (p.stale, p.refreshed, p.changed) == (False, True, True)


def test_nodes_over_a_refreshed_pattern_are_named_again_level_by_level():
    old = {
        n.id: n
        for n in [
            LadderNode(id="l2-a", level=2, members=["p1", "p2"], centroid=np.ones(3)),
            LadderNode(id="l2-b", level=2, members=["p3"], centroid=np.ones(3)),
            LadderNode(id="l3", level=3, members=["l2-a", "l2-b"], centroid=np.ones(3)),
        ]
    }
    renamed = Renamed(["p1"])
    assert not renamed.keeps(old["l2-a"], old) and renamed.keeps(old["l2-b"], old)
    assert not renamed.keeps(old["l3"], old)  # above a renamed node
    assert Renamed([]).keeps(old["l3"], old)


def test_stored_rows_become_extraction_items_by_pattern_without_particular_names():
    rows = [
        {
            "pattern": "p1",
            "id": f"e{i}",
            "description": d,
            "outcome": "success",
            "kind": "move",
            "strategy_used": None,
            "confidence": None,
        }
        for i, d in enumerate(["Closed the Mayall dome for humidity", "Closed the Mayall dome when dew formed"])
    ]
    items = examples_by_pattern(rows)["p1"]
    assert [i.id for i in items] == ["e0", "e1"] and all("Mayall" in i.description for i in items)
    assert not any("Mayall" in (i.action or "") for i in items)  # what the offline rules generalise from


def test_a_pattern_is_said_stale_only_once_its_examples_stopped_holding():
    from datetime import UTC, datetime

    from graphmind.dream.knowledge import stale_note

    now = datetime(2026, 6, 1, tzinfo=UTC)
    assert stale_note("2026-05-01T09:30:00+00:00", now).startswith("examples superseded since 2026-05-01 09:30 UTC")
    assert stale_note("2099-01-01T00:00:00+00:00", now) is None and stale_note(None, now) is None


def test_a_name_the_stored_experiences_that_hold_still_say_is_kept():
    from graphmind.dream.refresh import still_held

    held = still_held(
        [
            {"pattern": "p1", "description": "Closed the dome at 85 percent humidity"},
            {"pattern": "p2", "description": "Fined with Biofine instead"},
        ]
    )
    from graphmind.dream.refresh import stems

    assert stems("close at 85 percent") <= held["p1"]  # "closed" says "close": kept when told again
    assert not stems("Fining with isinglass") <= held["p2"]  # the replaced fact's name goes
