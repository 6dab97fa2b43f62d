"""A capture under an id the caller gives (Python API; REST in test_rest_api): the same
experience again writes nothing, other content under a taken id is refused and overwrites
nothing, and a batch with one such id writes none of its experiences."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from graphmind.errors import ConflictError
from graphmind.models import Experience

pytestmark = pytest.mark.integration

BOIL = {"id": "boil-1", "description": "Boiled the wort for 60 minutes with the lid off", "outcome": "success"}


def test_a_retried_capture_is_stored_once_and_other_content_under_its_id_is_refused(mind):
    assert mind.capture(BOIL, wait=True) == "boil-1"
    stamp = mind.get("boil-1").timestamp
    assert mind.capture(Experience.model_validate(BOIL), wait=True) == "boil-1"  # a retry
    assert mind.get("boil-1").timestamp == stamp
    with pytest.raises(ConflictError, match="boil-1"):
        mind.capture({**BOIL, "description": "Chilled the wort overnight"})  # queued captures check too
    with pytest.raises(ConflictError):
        mind.capture({**BOIL, "outcome": "failure"}, supersedes=["boil-1"])
    mind.flush()
    assert mind.get("boil-1").description == BOIL["description"] and mind.stats().labels == {"Experience": 1}


def test_a_batch_with_a_taken_id_writes_nothing_and_one_stored_alike_is_not_written_again(mind):
    mind.capture(BOIL, wait=True)
    fresh = {"id": "mash-1", "description": "Mashed in at 66C for an hour", "outcome": "success"}
    with pytest.raises(ConflictError):
        mind.capture_many([fresh, {**BOIL, "description": "Boiled it twice"}])
    assert mind.stats().labels == {"Experience": 1}
    stamp = mind.get("boil-1").timestamp
    assert mind.capture_many([BOIL, fresh]) == ["boil-1", "mash-1"]
    assert mind.get("boil-1").timestamp == stamp and mind.stats().labels == {"Experience": 2}


def test_a_queued_capture_counts_and_leaving_out_what_was_said_is_other_content(mind):
    mind.capture(BOIL)  # queued, not yet written
    with pytest.raises(ConflictError):
        mind.capture({**BOIL, "description": "Boiled it for ninety minutes"})
    named = {**BOIL, "id": "boil-2", "strategy_used": "rolling boil"}
    mind.capture(named, wait=True)
    with pytest.raises(ConflictError):
        mind.capture({k: v for k, v in named.items() if k != "strategy_used"}, wait=True)
    mind.flush()
    assert mind.get("boil-1").description == BOIL["description"] and mind.get("boil-2").strategy_used == "rolling boil"


def test_captures_naming_one_new_id_at_once_store_one_and_say_so(mind):
    """Eight threads capture under one id no memory holds: one is created, the same content
    again is a retry, other content a ConflictError; the first content stays."""
    tellings = [BOIL] * 4 + [{**BOIL, "description": f"Boiled the wort for {m} minutes"} for m in (30, 45, 75, 90)]

    def capture(experience: dict) -> object:
        try:
            return mind.capture_once(experience)
        except ConflictError as exc:
            return exc

    with ThreadPoolExecutor(8) as pool:
        done = list(pool.map(capture, tellings))
    mind.flush()
    created = [d for d in done if not isinstance(d, ConflictError) and d.created]
    assert len(created) == 1 and mind.stats().labels == {"Experience": 1}
    stored = mind.get("boil-1").description
    winner = tellings[done.index(created[0])]["description"]
    assert stored == winner
    for experience, outcome in zip(tellings, done):  # the rest: a retry of the winner, or refused
        if outcome is created[0]:
            continue
        if experience["description"] == stored:
            assert not isinstance(outcome, ConflictError) and not outcome.created
        else:
            assert isinstance(outcome, ConflictError)
