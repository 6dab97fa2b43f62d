"""Minds of different shapes for wander's tests and bench (issue 22), far from software: a
mountain rescue team's memory.

- ``consolidated``: 60 incident experiences, ten of each of six causes, written alike (the
  experiences of one cause lie within cosine ~0.2 of each other), then one offline dream.
- ``sparse``: a dozen memories of assorted labels with little in common.
"""

from __future__ import annotations

import json
from pathlib import Path

CONSOLIDATED_SEED = "casualty hypothermic after wet clothing on a long stretcher carry-out"
SPARSE_SEED = "keeping a casualty warm on the hill"

CAUSES = [
    ("slipped on wet scree", "the team splinted the ankle and carried the stretcher down the scree"),
    ("fell through a snow bridge into the stream", "the team hauled the casualty out with a rope system"),
    (
        "became hypothermic because wet clothing stayed on during the long carry-out",
        "the team swapped wet clothing for dry layers and wrapped the casualty in a vapour barrier",
    ),
    ("lost the path in thick fog on the plateau", "the team walked the party out on a compass bearing"),
    ("broke a wrist scrambling on the ridge", "the team splinted the wrist and walked the casualty down"),
    ("was exhausted after a late start and darkness", "the team fed the walker and escorted them down by headtorch"),
]
PLACES = [
    "below the north ridge",
    "in the upper gully",
    "on the col path",
    "near the lake outflow",
    "at the boulder field",
    "under the east face",
    "by the old bothy",
    "on the forestry track",
    "above the waterfall",
    "at the corrie lip",
]


def consolidated_experiences() -> list[dict]:
    rows = []
    for i in range(60):
        cause, action = CAUSES[i % len(CAUSES)]
        place = PLACES[(i // len(CAUSES)) % len(PLACES)]
        failed = i % 4 == 3
        rows.append(
            {
                "id": f"callout-{i:03d}",
                "description": f"A walker {place} {cause}; {action}."
                + (" The casualty still needed hospital care for cold injury." if failed else ""),
                "outcome": "failure" if failed else "success",
                "kind": "move",
                "timestamp": f"2026-02-{1 + i // 3:02d}T{8 + i % 3:02d}:00:00+00:00",
            }
        )
    return rows


def build_consolidated(mind) -> None:
    from graphmind.dream import DreamParams

    mind.capture_many(consolidated_experiences())
    mind.embed()
    mind.dream(DreamParams())


SPARSE = [
    (
        "Conversation_Memory",
        "talk-1",
        {"topic": "radio discipline on long callouts", "key_points": ["keep messages short", "repeat grid references"]},
    ),
    (
        "Failed_Attempt",
        "fail-1",
        {
            "approach": "carrying the casualty in wet clothing to save time",
            "why_failed": "the casualty became hypothermic on the carry-out",
        },
    ),
    (
        "Failed_Attempt",
        "fail-2",
        {"approach": "crossing the swollen stream at the ford", "why_failed": "the current knocked a team member over"},
    ),
    (
        "TopicEntry",
        "topic-1",
        {"topic": "first aid", "text": "A vapour barrier keeps a wet casualty warm on the stretcher."},
    ),
    ("TopicEntry", "topic-2", {"topic": "navigation", "text": "Aim off to one side of a stream junction in fog."}),
    (
        "TopicEntry",
        "topic-3",
        {"topic": "kit", "text": "Spare headtorch batteries go in an inside pocket in the cold."},
    ),
    ("Constraint", "rule-1", {"description": "Never send a lone searcher above the snowline after dark."}),
    (
        "Conversation_Memory",
        "talk-2",
        {"topic": "fundraising for a new stretcher", "key_points": ["the village fete raised half"]},
    ),
]


def sparse_file(folder: Path) -> Path:
    path = folder / "sparse-rescue.jsonl"
    path.write_text(
        "".join(
            json.dumps({"type": "node", "label": label, "id": i, "properties": props}) + "\n"
            for label, i, props in SPARSE
        )
    )
    return path
