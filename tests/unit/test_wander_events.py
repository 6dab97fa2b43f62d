"""Wander's event bus: subjects, NATS-style patterns, the JSONL log, publishers, faulty subscribers."""

from __future__ import annotations

import json

import pytest

from graphmind.errors import ValidationError
from graphmind.wander.events import EventBus, matches


def test_patterns_follow_nats():
    assert matches("wander.crystal.*", "wander.crystal.formed")
    assert not matches("wander.crystal.*", "wander.step.completed")
    assert matches("wander.>", "wander.budget.low") and not matches("wander.>", "wander")
    assert matches("wander.step.completed", "wander.step.completed")
    assert not matches("wander.step", "wander.step.completed")


def test_subscribers_log_and_publisher_see_every_event(tmp_path):
    sent, seen = [], []
    bus = EventBus(tmp_path / "events.jsonl", publisher=lambda subject, data: sent.append((subject, data)))
    unsubscribe = bus.subscribe("wander.crystal.*", seen.append)
    bus.subscribe("wander.>", lambda e: (_ for _ in ()).throw(RuntimeError("boom")))
    bus.publish("wander.crystal.formed", {"crystal_id": "c1"})
    bus.publish("wander.budget.low", {"spent": 410})
    unsubscribe()
    bus.publish("wander.crystal.validated", {"crystal_id": "c1"})
    assert [e.payload for e in seen] == [{"crystal_id": "c1"}]
    lines = [json.loads(x) for x in (tmp_path / "events.jsonl").read_text().splitlines()]
    assert [x["subject"] for x in lines] == ["wander.crystal.formed", "wander.budget.low", "wander.crystal.validated"]
    assert [s for s, _ in sent] == [x["subject"] for x in lines]
    assert len(bus.errors) == 3 and "boom" in bus.errors[0]
    with pytest.raises(ValidationError, match="not a wander event subject"):
        bus.publish("wander.unknown")
