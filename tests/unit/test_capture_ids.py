"""Which captured ids the caller named, and what a capture under a taken id does (pure)."""

from __future__ import annotations

import pytest

from graphmind.dream.capture import named_ids, untaken
from graphmind.errors import ConflictError
from graphmind.models import Experience

ROWS = [{"id": "a"}, {"id": "b"}, {"id": "c"}]


def test_only_the_ids_a_caller_gave_are_named():
    given = Experience.model_validate({"id": "x", "description": "d", "outcome": "success"})
    assert named_ids([given, {"id": "y", "description": "d"}, {"description": "no id"}]) == {"x", "y"}


def test_rows_stored_alike_are_dropped_and_a_clash_raises():
    assert untaken("m", ROWS, {"b": True}) == [{"id": "a"}, {"id": "c"}]
    assert untaken("m", ROWS, {}) == ROWS
    with pytest.raises(ConflictError, match="'c'"):
        untaken("m", ROWS, {"b": True, "c": False})
