"""``Mind.waiting`` / ``graphmind waiting`` / ``GET waiting``: the experiences no pattern holds
yet, those no dream has read and those a dream left to wait for more like them."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from graphmind.errors import NotFoundError, ValidationError
from graphmind.server.app import create_app
from graphmind.server.keys import create_key

from .helpers import run_cli

pytestmark = pytest.mark.integration

DEGAS = [
    "Degassed the mobile phase under vacuum for ten minutes; baseline flat again",
    "Sparged the eluent with helium, the pump stopped cavitating",
]


def _capture(mind, session: str, texts: list[str], day: int) -> None:
    mind.capture_many(
        [
            {
                "id": f"{session}-{i}",
                "description": t,
                "outcome": "success",
                "strategy_used": "degas mobile phase",
                "timestamp": f"2026-01-0{day}T09:0{i}:00+00:00",
            }
            for i, t in enumerate(texts)
        ],
        session_id=session,
    )


def test_waiting_lists_what_no_dream_has_read_then_what_a_dream_left(mind, cli_env, capsys, store, settings):
    empty = mind.waiting()
    assert (empty.total, empty.unread, empty.experiences) == (0, 0, [])
    _capture(mind, "monday", DEGAS, 5)
    unread = mind.waiting()
    assert unread.total == 2 and unread.unread == 2 and [e.id for e in unread.experiences] == ["monday-0", "monday-1"]
    assert all(e.runs == 0 and e.last_deferred is None for e in unread.experiences)

    report = mind.end_session("monday")
    assert report.patterns == 0 and report.deferred == 2  # two of a technique: too few for a pattern
    left = mind.waiting()
    assert left.total == 2 and left.unread == 0
    assert [(e.id, e.runs) for e in left.experiences] == [("monday-0", 1), ("monday-1", 1)]
    assert left.experiences[0].last_deferred

    _capture(mind, "tuesday", ["Topped up the column oven's coolant"], 6)
    assert [e.id for e in mind.waiting(session="tuesday").experiences] == ["tuesday-0"]
    first = mind.waiting(limit=1)
    assert (first.total, first.unread, len(first.experiences)) == (3, 1, 1)  # counted over all, not the page
    with pytest.raises(NotFoundError):
        mind.waiting(session="no-such-session")
    with pytest.raises(ValidationError):
        mind.waiting(limit=0)

    code, out, _ = run_cli(capsys, "waiting", "--mind", mind.name)
    assert code == 0 and "3 experiences wait for a pattern (1 that no dream has read yet, 2 that" in out
    assert "monday-1  left by 1 run" in out and "tuesday-0  unread" in out
    code, out, _ = run_cli(capsys, "waiting", "--mind", mind.name, "--session", "tuesday", "--json")
    assert code == 0 and json.loads(out)["experiences"][0]["id"] == "tuesday-0"
    code, _, err = run_cli(capsys, "waiting", "--mind", mind.name, "--session", "nope")
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err

    _, key = create_key(store, mind.name, "read")
    with TestClient(create_app(settings, store)) as api:
        got = api.get(f"/api/v1/minds/{mind.name}/waiting?limit=5", headers={"Authorization": f"Bearer {key}"})
        assert got.status_code == 200 and got.json()["total"] == 3
        bad = api.get(f"/api/v1/minds/{mind.name}/waiting?limit=0", headers={"Authorization": f"Bearer {key}"})
        assert bad.status_code == 422
