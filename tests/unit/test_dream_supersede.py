"""Which side of a contradicted pattern pair loses (graphmind/dream/supersede.py; issue 20,
item 4 and issue 26, item 3): the one whose evidence is all older, by the gap; a tie stays
flagged."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np

from graphmind.dream.items import ExperienceRow, PatternState, Tally
from graphmind.dream.publication import mark_verification, pattern_row
from graphmind.dream.supersede import Superseded, evidence_span, loser, resolve
from graphmind.dream.verify import Verification

HOUR = timedelta(hours=1)


def day(d: int, h: int = 0) -> datetime:
    return datetime(2026, 3, d, h, tzinfo=UTC)


def pattern(pid: str, evidence=None, new_members=()) -> PatternState:
    return PatternState(
        pid, pid, pid, "technique", np.zeros(4, np.float32), Tally(), new_members=list(new_members), evidence=evidence
    )


def test_the_side_whose_evidence_all_precedes_the_other_loses():
    older, newer = (day(1), day(2)), (day(5), day(6))
    assert loser(older, newer, HOUR) == 0 and loser(newer, older, HOUR) == 1


def test_overlapping_close_or_undated_evidence_is_a_tie():
    assert loser((day(1), day(5)), (day(3), day(6)), HOUR) is None  # overlap: contested, not superseded
    assert loser((day(1), day(1, 1)), (day(1, 1), day(1, 2)), 2 * HOUR) is None  # one sitting
    assert loser((day(1), day(1)), (day(1), day(1)), timedelta(0)) == 0  # no gap asked: back to back loses
    assert loser(None, (day(5), day(6)), HOUR) is None and loser((day(1), day(2)), None, HOUR) is None


def test_the_span_reads_stored_evidence_and_this_runs_experiences():
    rows = {
        "e1": ExperienceRow("e1", "d", "success", timestamp="2026-03-09T00:00:00Z"),
        "e2": ExperienceRow("e2", "d", "success", timestamp=None),
    }
    stored = pattern("p", evidence=("2026-03-01T00:00:00Z", day(2)), new_members=["e1", "e2", "gone"])
    assert evidence_span(stored, rows) == (day(1), day(9))
    assert evidence_span(pattern("q"), rows) is None
    assert evidence_span(pattern("r", new_members=["e1"]), rows) == (day(9), day(9))


def test_each_loser_once_superseded_by_the_rival_that_began_first():
    a = pattern("a", evidence=(day(1), day(2)))
    b = pattern("b", evidence=(day(10), day(12)))
    c = pattern("c", evidence=(day(5), day(6)))
    d = pattern("d", evidence=(day(1), day(20)))  # overlaps every other: never settled
    found = resolve([a, b, c, d], [("a", "b"), ("a", "c"), ("a", "d"), ("b", "d")], [], HOUR)
    assert found == [Superseded("a", "c", day(5))]
    assert resolve([a, b], [("a", "b")], [], timedelta(days=30)) == []  # the gap decides
    assert resolve([a, b], [], [], HOUR) == []


def test_a_run_that_verified_leaves_a_pattern_invalidated_since_the_last_run_invalidated():
    kept, fresh = pattern("kept"), pattern("fresh")
    kept.stored_verification = kept.verification_status = "invalidated"
    mark_verification([kept, fresh], Verification(status="verified", score=1.0, checks={}))
    assert (kept.verification_status, fresh.verification_status) == ("invalidated", "verified")


def test_a_pattern_that_only_lost_its_experiences_holds_again_when_a_valid_one_joins():
    verified = Verification(status="verified", score=1.0, checks={})
    grown = pattern("grown", new_members=["e9"])
    replaced = pattern("replaced", new_members=["e9"])
    replaced.superseded_itself = True  # a memory replaced the pattern itself: a new member does not undo that
    stale = pattern("stale", new_members=["e8"])  # its new member is itself no longer valid
    for p in (grown, replaced, stale):
        p.stored_verification = p.verification_status = "invalidated"
    mark_verification([grown, replaced, stale], verified, valid_new={"e9"})
    assert [p.verification_status for p in (grown, replaced, stale)] == ["verified", "invalidated", "invalidated"]
    assert (grown.revived, replaced.revived, stale.revived) == (True, False, False)
    assert pattern_row("m", grown, True)["props"]["invalid_at"] is None
    assert "invalid_at" not in pattern_row("m", stale, True)["props"]


def test_a_pattern_told_again_from_its_replacement_holds_again():
    """Every experience of "fining" was superseded by one that joined it ("Biofine replaces
    isinglass"), and the run extracted its text again from what holds: it states the new rule,
    so it holds (a new user's brew log: it stayed invalidated, and knowledge still said so).
    Without the new text it stays invalidated: its old text would misstate the replacement."""
    verified = Verification(status="verified", score=1.0, checks={})
    retold, untold = pattern("retold", new_members=["e9"]), pattern("untold", new_members=["e9"])
    retold.refreshed = True
    for p in (retold, untold):
        p.stored_verification = p.verification_status = "invalidated"
    mark_verification([retold, untold], verified, valid_new=set(), valid={"e9"})
    assert [p.verification_status for p in (retold, untold)] == ["verified", "invalidated"]


def test_one_flagged_edge_leaves_the_rest_of_the_ladder_verified():
    from graphmind.dream.vertical import Flag

    a, b, c = pattern("a"), pattern("b"), pattern("c")
    edge = Flag("vertical_consistency", "cat-1", "b", "cat-2 explains b better than its parent does")
    flagged = Verification(status="flagged", score=0.9, checks={"vertical_consistency": _result_with(edge)})
    mark_verification([a, b, c], flagged)
    assert [p.verification_status for p in (a, b, c)] == ["verified", "unverified", "verified"]
    failed = Verification(status="failed", score=0.5, checks={"vertical_consistency": _result_with(edge)})
    mark_verification([a, b, c], failed)
    assert {p.verification_status for p in (a, b, c)} == {"unverified"}  # a failed ladder verifies nothing


def _result_with(flag):
    from graphmind.dream.verify import CheckResult

    return CheckResult(passed=False, message="1 vertical inconsistency", flagged=[flag])
