"""Facts valid in time (issue 26, item 3): what recall sees as of a date, and that valid facts
come first by default (graphmind/recall/validity.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmind.errors import ValidationError
from graphmind.models import Experience
from graphmind.recall.validity import is_valid, node_validity, not_valid, parse_as_of, prefer_valid, visible_at

JAN, MAR, MAY, JUL = (datetime(2026, m, 1, tzinfo=UTC) for m in (1, 3, 5, 7))


def test_a_memory_is_visible_inside_its_window_from_its_valid_from_or_when_it_was_made():
    old = {"created_at": JAN, "invalid_at": MAY}
    new = {"created_at": MAY}
    assert visible_at(old, MAR) and not visible_at(old, MAY) and not visible_at(old, JUL)
    assert not visible_at(new, MAR) and visible_at(new, MAY) and visible_at(new, JUL)
    assert not visible_at({"created_at": JAN, "valid_from": MAY}, MAR)
    assert visible_at({"created_at": JAN, "valid_from": MAR}, MAR)
    assert visible_at({"created_at": JUL, "valid_from": MAR}, MAY)  # logged later, true since March
    assert not visible_at({"created_at": JUL}, MAY)  # no valid_from: from when it was recorded
    assert visible_at({"created_at": JUL, "timestamp": MAR}, MAY)  # or when it happened: a back-filled notebook
    assert not visible_at({"created_at": JAN, "timestamp": MAY, "valid_from": JUL}, MAY)  # valid_from decides first
    assert visible_at({}, JAN)  # nothing known: always there
    assert visible_at({"created_at": "2026-01-01T00:00:00Z", "invalid_at": "2026-05-01T00:00:00.123456789Z"}, MAR)


def test_validity_now_reads_the_window_and_the_dreams_invalidated_mark():
    assert is_valid({}, JUL)
    assert not is_valid({"invalid_at": MAY}, JUL) and is_valid({"invalid_at": MAY}, MAR)
    assert not is_valid({"valid_from": MAY}, MAR)
    assert not is_valid({"verification_status": "invalidated"}, JUL)  # no date: invalid at any time
    dated = {"verification_status": "invalidated", "invalid_at": MAY}
    assert is_valid(dated, MAR) and not is_valid(dated, JUL)


def test_valid_facts_come_first_each_group_keeping_its_order():
    items: list[tuple[str, dict[str, object]]] = [
        ("a", {"invalid_at": MAR}),
        ("b", {}),
        ("c", {"verification_status": "invalidated"}),
        ("d", {}),
    ]
    assert [x for x, _ in prefer_valid(items, lambda x: x[1], JUL)] == ["b", "d", "a", "c"]
    assert [x for x, _ in prefer_valid(items, lambda x: x[1], JAN)] == ["a", "b", "d", "c"]
    assert prefer_valid([], lambda x: {}, JUL) == []


def test_a_node_model_carries_its_window_and_refuses_an_empty_one():
    node = Experience(id="e", description="d", outcome="success", valid_from="2026-01-01", invalid_at=MAY)
    seen = node_validity(node)
    assert seen["valid_from"] == JAN and seen["invalid_at"] == MAY and seen["verification_status"] is None
    with pytest.raises(ValueError, match="invalid_at must be later than valid_from"):
        Experience(id="e", description="d", outcome="success", valid_from=MAY, invalid_at=JAN)


def test_as_of_takes_iso_dates_and_refuses_anything_else():
    assert parse_as_of(None) is None
    assert parse_as_of("2026-03-01") == MAR
    assert parse_as_of(" 2026-03-01T00:00:00Z ") == MAR
    assert parse_as_of(MAR) == MAR
    for bad in ("yesterday", "2026-13-01", "", 42):
        with pytest.raises(ValidationError, match="as_of must be an ISO-8601 date"):
            parse_as_of(bad)


def test_a_memory_not_valid_says_why():
    assert not_valid({}, JUL) is None and not_valid({"invalid_at": MAY}, MAR) is None
    assert not_valid({"invalid_at": MAY}, JUL) == "not valid since 2026-05-01 00:00 UTC"
    assert not_valid({"valid_from": MAY}, MAR) == "valid only from 2026-05-01 00:00 UTC"
    assert not_valid({"status": "retired"}, JUL).startswith("retired: a later dream")
    assert not_valid({"status": "retired"}, MAR, now=False) is None  # as of a date: its status then is unknown
    assert not_valid({"status": "pruned"}, JUL).startswith("pruned") and not_valid({"status": "active"}, JUL) is None
    assert not_valid({"verification_status": "invalidated"}, JUL) == "invalidated by a dream"
