"""``graphmind recall``'s text (cli.recall_cmd._recall_text): whole texts on request, and why
nothing came back as of a date."""

from graphmind.cli.recall_cmd import _recall_text
from graphmind.recall.results import RecallHit, RecallResult
from graphmind.store.records import node_to_model

LONG = "The staircase truck creaked loudly on Sam's entrance. " + "Tom Hadley tightened every bolt. " * 4


def _result(hits: list[RecallHit]) -> RecallResult:
    return RecallResult(mind="tour", query="staircase", model_id="m", hits=hits)


def test_a_hit_is_cut_at_100_characters_unless_the_whole_text_is_asked_for():
    node = node_to_model("Experience", {"id": "e12", "description": LONG, "outcome": "success"})
    result = _result([RecallHit(node=node, label="Experience", score=0.5)])
    assert _recall_text(result).count("Tom Hadley") < 4 and "…" in _recall_text(result)
    assert LONG.strip() in _recall_text(result, full=True) and _recall_text(result, full=True).count("Tom Hadley") == 4


def test_nothing_recalled_as_of_a_date_says_why():
    assert _recall_text(_result([])) == "mind 'tour': nothing recalled for 'staircase'"
    told = _recall_text(_result([]), as_of="2025-09-05")
    assert told.startswith("mind 'tour': nothing recalled for 'staircase' as of 2025-09-05 (memories valid only")
    assert "--valid-from" in told
