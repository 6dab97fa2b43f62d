"""The dreaming pipeline's pure phases: triage, pruning, connections, verification, triggers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from graphmind.dream.capture import experience_row
from graphmind.dream.compress import join_existing, matching_pattern, name_key
from graphmind.dream.integrate import connect, prune
from graphmind.dream.items import ExperienceRow, LadderNode, PatternState, Tally
from graphmind.dream.params import DreamParams
from graphmind.dream.schedule import Schedule, parse_duration, threshold_due, watch
from graphmind.dream.triage import TriageResult, triage
from graphmind.dream.verify import ladder_edges, levels_of, verify
from graphmind.dream.vertical import VerticalParams, margins, too_many
from graphmind.errors import ValidationError
from tests.unit.dream_items import pattern, unit

PARAMS = DreamParams()


def exp(i: int, outcome: str = "success", **kw) -> ExperienceRow:
    return ExperienceRow(
        id=f"e{i}", description=f"experience {i}", outcome=outcome, timestamp=f"2026-01-04T21:00:{i:02d}+00:00", **kw
    )


# -- triage ---------------------------------------------------------------------------------
def test_importance_follows_the_seeds_weights():
    rows = [exp(0, "success", confidence=1.0), exp(1, "failure", confidence=0.0)]
    vectors = np.vstack([unit(1, 0), unit(0, 1)])  # orthogonal: both fully novel
    result = triage(rows, vectors, PARAMS)
    assert result.importance == [pytest.approx(0.4 + 0.3 + 0.1), pytest.approx(0.3 + 0.2)]


def test_near_duplicates_collapse_onto_the_most_important_one_by_an_edge():
    rows = [exp(0, importance=0.4), exp(1, importance=0.9), exp(2)]
    vectors = np.vstack([unit(1, 0.1), unit(1, 0.12), unit(0, 1)])  # 0 and 1 nearly equal
    result = triage(rows, vectors, PARAMS)
    assert result.kept == [1, 2]
    rep, similarity = result.duplicate_of[0]
    assert rep == 1 and similarity >= 0.8
    assert list(result.weight(3)) == [0, 2, 1]


def test_a_superseded_experience_stands_for_no_valid_one_however_important():
    rows = [exp(0, importance=0.9, invalid=True), exp(1, importance=0.4), exp(2)]
    vectors = np.vstack([unit(1, 0.1), unit(1, 0.12), unit(0, 1)])  # 0 and 1 nearly equal
    result = triage(rows, vectors, PARAMS)
    assert result.kept == [1, 2] and result.duplicate_of[0][0] == 1
    named = [exp(0, strategy_used="close dome", invalid=True), exp(1, strategy_used="close dome")]
    told = triage(named, np.vstack([unit(1, 0), unit(0.35, 0.94)]), PARAMS, chance=0.1)  # a retelling
    assert told.kept == [0, 1] and told.duplicate_of == {}  # the valid one is not filed under the old one


def test_a_failure_never_collapses_onto_a_success_that_reads_alike():
    rows = [
        exp(0, "success", strategy_used="retry"),
        exp(1, "failure", strategy_used="retry"),
        exp(2, strategy_used="retry"),
    ]
    vectors = np.vstack([unit(1, 0.1), unit(1, 0.11), unit(1, 0.12)])  # all three nearly equal
    result = triage(rows, vectors, PARAMS)
    assert 1 in result.kept and 1 not in result.duplicate_of
    assert result.duplicate_of[2][0] == 0  # the repeated success still collapses


def at_cosine(c: float) -> np.ndarray:
    return np.vstack([unit(1, 0), unit(c, float(np.sqrt(1 - c * c)))])


def test_a_named_strategy_retold_collapses_where_unnamed_look_alikes_stay_apart():
    named = [exp(0, strategy_used="warm the cache"), exp(1, strategy_used="Warm the  cache")]
    unnamed = [exp(0), exp(1)]
    assert triage(named, at_cosine(0.75), PARAMS).duplicate_of[1][0] == 0  # one technique, told again
    assert triage(unnamed, at_cosine(0.75), PARAMS).duplicate_of == {}  # requests that only read alike
    assert triage(unnamed, at_cosine(0.85), PARAMS).duplicate_of[1][0] == 0  # the spec's 0.8
    assert triage(named, at_cosine(0.75), DreamParams(clustering="semantic")).duplicate_of == {}  # names ignored


def test_a_success_retold_in_other_words_joins_its_first_account_at_any_cosine():
    purge = [exp(i, strategy_used="low-flow purge") for i in range(3)]
    vectors = np.vstack([unit(1, 0, 0), unit(0.35, 0.94, 0), unit(0.3, 0.3, 0.9)])  # 0.35 and 0.30 from it
    result = triage(purge, vectors, PARAMS)
    assert result.kept == [0]
    assert result.duplicate_of[1][0] == 0 and result.duplicate_of[1][1] == pytest.approx(0.35, abs=0.01)
    assert result.duplicate_of[2][0] == 0  # a retelling of the retelling reaches the first account
    assert triage(purge, vectors, DreamParams(clustering="semantic")).duplicate_of == {}  # names ignored


def test_a_name_over_unrelated_techniques_is_not_retold_below_chance():
    named = [exp(0, strategy_used="on-call runbook"), exp(1, strategy_used="on-call runbook")]
    assert triage(named, at_cosine(0.1), PARAMS, chance=0.33).duplicate_of == {}  # less alike than chance
    assert triage(named, at_cosine(0.4), PARAMS, chance=0.33).duplicate_of[1][0] == 0


def test_a_retelling_from_another_session_stays_when_its_first_account_is_over_the_cap():
    rows = [
        exp(0, strategy_used="purge", session_id="a", importance=0.5),
        exp(1, session_id="a", importance=0.9),  # takes session a's one place
        exp(2, strategy_used="purge", session_id="b"),  # retells 0, at cosine 0.3
    ]
    vectors = np.vstack([unit(1, 0, 0), unit(0, 0, 1), unit(0.3, 0.95, 0)])
    result = triage(rows, vectors, DreamParams(max_per_session=1), chance=0.2)
    assert result.kept == [1, 2] and result.filtered == [0] and result.duplicate_of == {}


def test_what_follows_a_failure_failures_and_insights_are_never_retold():
    rows = [
        exp(0, strategy_used="salt dilution"),
        exp(1, "failure", strategy_used="salt dilution"),
        exp(2, strategy_used="salt dilution"),  # the fix, told after the failure
        exp(3, "failure", strategy_used="salt dilution"),  # a second failure, cosine 0.75
        exp(4, kind="insight", strategy_used="salt dilution"),
    ]
    vectors = np.vstack(
        [
            unit(1, 0, 0, 0, 0),
            unit(0, 1, 0, 0, 0),
            unit(0.5, 0, 0, 0.87, 0),
            unit(0, 0.75, 0.66, 0, 0),
            unit(0, 0, 0, 0, 1),
        ]
    )
    result = triage(rows, vectors, PARAMS)
    assert result.kept == [0, 1, 2, 3, 4] and result.duplicate_of == {}
    progress = [exp(0, "progress", strategy_used="daily status"), exp(1, "progress", strategy_used="daily status")]
    assert triage(progress, at_cosine(0.4), PARAMS).duplicate_of[1][0] == 0  # a status note told again


def test_under_a_name_for_several_techniques_a_first_account_nearer_to_another_stays():
    rows = [
        exp(0, strategy_used="on-call runbook"),  # rotated credentials
        exp(1),  # a restart, no strategy named
        exp(2, strategy_used="on-call runbook"),  # a restart: nearest to 1, not to 0
        exp(3, strategy_used="on-call runbook"),  # another restart: nearest to 2
    ]
    vectors = np.vstack([unit(1, 0, 0), unit(0, 1, 0.2), unit(0.45, 0.8, 0.3), unit(0.3, 0.9, 0.35)])
    result = triage(rows, vectors, PARAMS)
    assert 2 in result.kept and result.duplicate_of[3][0] == 2


def test_breakthroughs_are_always_kept_and_never_collapsed():
    rows = [
        exp(0, "failure", kind="insight", confidence=0.0),
        exp(1, "failure", impact="high", confidence=0.0),
        exp(2, "failure", confidence=0.0),
    ]
    vectors = np.vstack([unit(1), unit(1), unit(1)])  # identical, nothing novel after the first
    result = triage(rows, vectors, DreamParams(min_importance=0.9))
    assert result.kept == [0, 1]
    assert result.filtered == [] and result.duplicate_of[2][0] in (0, 1)  # a failure is never filtered out


def test_a_given_importance_is_used_and_the_floor_filters():
    rows = [exp(0, importance=0.1), exp(1, importance=0.5)]
    result = triage(rows, np.vstack([unit(1, 0), unit(0, 1)]), PARAMS)
    assert result.kept == [1] and result.filtered == [0]


def test_at_most_max_per_session_representatives_per_session():
    rows = [exp(i, session_id="s1") for i in range(5)] + [exp(9)]
    vectors = np.eye(8, dtype=np.float32)[:6]
    result = triage(rows, vectors, DreamParams(max_per_session=3))
    assert len([i for i in result.kept if rows[i].session_id == "s1"]) == 3
    assert 5 in result.kept  # no session: not capped


# -- compression: a new group that matches an existing pattern grows it ------------------------
def test_a_group_matches_a_pattern_it_twins_or_that_is_named_alike_and_related():
    dns, bgp = pattern("dns", unit(1, 0)), pattern("bgp", unit(0, 1))
    dns.name = "DNS cache flush"
    assert matching_pattern(unit(1, 0.3), None, [dns, bgp], PARAMS) == 0  # cosine 0.96: a twin
    assert matching_pattern(unit(1, 0.9), "dns  cache-flush", [dns, bgp], PARAMS) == 0  # 0.74, same name
    assert matching_pattern(unit(1, 0.9), "resolver restart", [dns, bgp], PARAMS) is None  # 0.74, other name


def test_a_group_or_an_experience_filed_under_other_names_never_joins_a_pattern():
    dns = pattern("dns", unit(1, 0), strategies=frozenset({"dns flush"}))
    twin = unit(1, 0.1)  # cosine 0.995
    assert matching_pattern(twin, None, [dns], PARAMS, frozenset({"resolver restart"})) is None
    assert matching_pattern(twin, None, [dns], PARAMS, frozenset({"dns flush", "resolver restart"})) == 0
    assert matching_pattern(twin, None, [dns], PARAMS) == 0  # an unnamed group
    semantic = PARAMS.model_copy(update={"clustering": "semantic"})
    assert matching_pattern(twin, None, [dns], semantic, frozenset({"resolver restart"})) == 0
    rows = [exp(0, strategy_used="resolver restart"), exp(1, strategy_used="DNS  flush"), exp(2)]
    joined = join_existing(np.vstack([twin, twin, twin]), [0, 1, 2], [dns], rows, PARAMS, 0.33)
    assert joined == {1: 0, 2: 0}


def test_an_experience_joins_the_pattern_its_strategy_names_when_more_alike_than_chance():
    dns = pattern("dns", unit(1, 0), strategies=frozenset({"dns flush"}))
    near = pattern("near", unit(1, 0.9))  # unnamed, cosine 0.96 to the experiences below
    told = unit(1, 1.2)  # cosine 0.64 to dns: under join_similarity (0.7), above chance
    rows = [exp(0, strategy_used="DNS flush"), exp(1), exp(2, strategy_used="dns flush")]
    far = unit(-1, 2)  # cosine -0.45 to dns: its name alone does not make it that technique
    vectors = np.vstack([told, told, far])
    assert join_existing(vectors, [0, 1, 2], [dns], rows, PARAMS, 0.33) == {0: 0}
    # the name wins over a nearer pattern filed under no name; the unnamed one goes by meaning
    assert join_existing(vectors, [0, 1, 2], [dns, near], rows, PARAMS, 0.33) == {0: 0, 1: 1}
    semantic = PARAMS.model_copy(update={"clustering": "semantic"})
    assert join_existing(vectors, [0, 1], [dns], rows, semantic, 0.33) == {}


def test_a_group_named_like_an_unrelated_pattern_stays_apart():
    dns = pattern("dns", unit(1, 0))
    dns.name = "Flush"
    assert matching_pattern(unit(1, 2), "flush", [dns], PARAMS) is None  # same name, cosine 0.45
    dns.status = "pruned"
    assert matching_pattern(unit(1, 0.1), "flush", [dns], PARAMS) is None  # a pruned pattern grows no more
    assert name_key("DNS  cache-flush!") == name_key("dns cache flush")


# -- pruning and connections ------------------------------------------------------------------
def test_a_redundant_pattern_is_pruned_and_superseded_by_the_more_useful_one():
    strong, weak = pattern("strong", unit(1, 0.05), 30), pattern("weak", unit(1, 0.06), 4)
    pruned = prune([strong, weak], PARAMS)
    assert [(p.pattern_id, p.reason, p.superseded_by) for p in pruned] == [("weak", "redundant", "strong")]
    assert weak.status == "pruned" and strong.active
    assert weak.verification_status == "invalidated" and strong.verification_status != "invalidated"


def test_patterns_the_agent_filed_under_different_names_are_never_twins():
    """Templated moves read alike ("hidden single" and "pointing pair" means at cosine 0.81):
    the agent's names keep them apart, as a run's grouping does."""
    hidden = pattern("hidden", unit(1, 0.05), 30, strategies=frozenset({"hidden single"}))
    pointing = pattern("pointing", unit(1, 0.06), 4, strategies=frozenset({"pointing pair"}))
    assert prune([hidden, pointing], PARAMS) == []
    semantic = [pattern(p.id, p.centroid, p.usage_count, strategies=p.strategies) for p in (hidden, pointing)]
    assert len(prune(semantic, PARAMS.model_copy(update={"clustering": "semantic"}))) == 1  # names ignored
    for strategies in (frozenset({"pointing pair", "hidden single"}), frozenset()):  # a name shared, or none
        again = [pattern("hidden", unit(1, 0.05), 30, strategies=hidden.strategies)]
        again.append(pattern("pointing", unit(1, 0.06), 4, strategies=strategies))
        assert [p.pattern_id for p in prune(again, PARAMS)] == ["pointing"]


def test_a_low_utility_pattern_is_pruned_but_not_invalidated():
    lone = pattern("lone", unit(1), 1, 0)  # it worked, once: little utility, nothing shown wrong
    pruned = prune([lone], PARAMS.model_copy(update={"min_utility": 0.99}))
    assert [(p.pattern_id, p.reason) for p in pruned] == [("lone", "low_utility")]
    assert lone.verification_status != "invalidated"


def weak(pid: str, vector: np.ndarray, **kw) -> PatternState:
    """A low-utility pattern that records no failure: mostly partial progress, one failure,
    a loose cluster."""
    p = pattern(pid, vector, successes=0, failures=1, **kw)
    p.tally.progress, p.cohesion = 2, 0.1
    return p


def test_a_low_utility_pattern_is_pruned_not_deleted():
    bad = weak("bad", unit(0, 1))
    good = pattern("good", unit(1, 0))
    pruned = prune([good, bad], PARAMS)
    assert [(p.pattern_id, p.reason) for p in pruned] == [("bad", "low_utility")]
    assert bad.utility < 0.2 and bad.status == "pruned"


def test_a_pattern_records_a_failure_when_at_least_half_its_experiences_failed():
    assert Tally(success=2, failure=2).records_failure(0.5)
    assert Tally(failure=3).records_failure(0.5)
    assert not Tally(success=1, progress=1, failure=1).records_failure(0.5)  # one failure of three
    assert not Tally().records_failure(0.5)


def test_the_only_evidence_of_a_failure_survives_low_utility_pruning():
    # Searing cold steak in a crowded pan never browned it: 4 failures, utility far below 0.2.
    failed = pattern(
        "crowded-pan",
        unit(0, 1),
        successes=0,
        failures=4,
        description="searing a crowded pan: the steak steamed grey instead of browning",
    )
    good = pattern("dry-steak", unit(1, 0), description="patting the steak dry: it browned")
    assert failed.utility < PARAMS.min_utility
    assert prune([good, failed], PARAMS) == []
    assert failed.active


def test_a_failure_is_not_pruned_as_the_twin_of_a_success():
    # Alike in meaning (cosine > 0.8), but one says the approach worked, the other that it did not.
    worked = pattern("rest-meat", unit(1, 0.1), successes=12, description="resting the roast kept it juicy")
    failed = pattern(
        "rest-fish", unit(1, 0.2), successes=1, failures=3, description="resting the fish did not keep it moist"
    )
    assert prune([worked, failed], PARAMS) == [] and failed.active


def test_a_failure_is_pruned_as_the_twin_of_a_failure_that_keeps_the_evidence():
    strong = pattern(
        "boil-salt", unit(1, 0.1), successes=1, failures=9, description="salting the water did not make it boil sooner"
    )
    twin = pattern(
        "boil-salt-2", unit(1, 0.12), successes=0, failures=3, description="salted water did not boil faster"
    )
    pruned = prune([strong, twin], PARAMS)
    assert [(p.pattern_id, p.reason, p.superseded_by) for p in pruned] == [("boil-salt-2", "redundant", "boil-salt")]


def test_connections_join_patterns_at_least_0_6_alike_with_a_rule_kind():
    a = pattern("a", unit(1, 0.5), conditions=["when a cell has one candidate"], actions=["place the digit"])
    b = pattern("b", unit(1, 0.9), conditions=["when the digit is placed in the unit"], actions=["eliminate it"])
    c = pattern("c", unit(0, 0, 1))
    found = connect([a, b, c], PARAMS)
    assert len(found) == 1
    assert (found[0].from_id, found[0].to_id, found[0].kind) == ("a", "b", "prerequisite")
    assert 0.6 <= found[0].strength <= 1


# -- verification: each inconsistency injected is caught ---------------------------------------
def ladder_for(patterns: list[PatternState]) -> list[LadderNode]:
    l2 = LadderNode(
        "l2",
        2,
        [p.id for p in patterns],
        unit(1),
        "Elimination placement",
        "Subsumes: " + ", ".join(p.description for p in patterns),
    )
    l3 = LadderNode("l3", 3, ["l2"], unit(1), "Constraint propagation", "Subsumes: Elimination placement.")
    return [l2, l3]


def sudoku_patterns() -> list[PatternState]:
    return [
        pattern(
            "ns",
            unit(1, 0.2),
            description="Naked single: place the only candidate",
            conditions=["a cell has one candidate"],
            actions=["place the digit"],
        ),
        pattern(
            "hs",
            unit(1, 0.5),
            description="Hidden single: place the digit in its only cell",
            conditions=["a digit has one position in a unit"],
            actions=["place the digit there"],
        ),
    ]


def test_a_consistent_ladder_is_verified():
    patterns = sudoku_patterns()
    result = verify(patterns, ladder_for(patterns), PARAMS)
    assert result.status == "verified" and result.score == 1.0


def test_vertical_inconsistency_is_caught():
    """A child its parent explains worse than a rival does (by the margins of
    graphmind.dream.vertical) is flagged; past what a true ladder shows by chance, the ladder fails."""
    patterns = sudoku_patterns() + [
        pattern("vat", unit(0, 1), description="file the quarterly VAT return"),
        pattern("pay", unit(0, 1, 0.1), description="pay the payroll tax"),
    ]
    nodes = [
        LadderNode("tax", 2, ["ns", "vat"], unit(1), "Tax accounting", "Quarterly filings."),
        LadderNode("place", 2, ["hs", "pay"], unit(1), "Placing digits", "Place a digit where it must go."),
        LadderNode("top", 3, ["place", "tax"], unit(1), "Everything", ""),
    ]
    vectors = {
        "ns": unit(1, 0.1),
        "hs": unit(1, 0.2),
        "vat": unit(0, 1),
        "pay": unit(0, 1, 0.1),
        "tax": unit(0, 1, 0.1),
        "place": unit(1, 0, 0.1),
        "top": unit(1, 1),
    }
    found = margins(ladder_edges(nodes), levels_of(patterns, nodes), vectors)
    single = [
        LadderNode("tax", 2, ["ns", "pay", "vat"], unit(1), "Tax accounting", ""),
        LadderNode("place", 2, ["hs"], unit(1), "Placing digits", ""),
        nodes[2],
    ]
    one = verify(patterns, single, PARAMS, margins=margins(ladder_edges(single), levels_of(patterns, single), vectors))
    result = verify(patterns, nodes, PARAMS, margins=found)
    flagged = [(f.parent, f.child) for f in result.flagged]
    assert flagged == [("place", "pay"), ("tax", "ns")] and result.status == "failed"  # 2 of 6 edges
    assert 'tax ("Tax accounting") explains pay better' in result.checks["vertical_consistency"].details[0]
    assert [(f.parent, f.child) for f in one.flagged] == [("tax", "ns")]
    assert one.status == "flagged"  # one misplaced child alone does not fail a ladder


def test_a_level_skipping_edge_is_a_vertical_error():
    patterns = sudoku_patterns()
    nodes = ladder_for(patterns)
    nodes[1] = LadderNode("l3", 3, ["l2", "ns"], unit(1), "Constraint propagation", "Subsumes: Naked single.")
    assert not verify(patterns, nodes, PARAMS).checks["vertical_consistency"].passed


def test_horizontal_incoherence_and_rewording_are_caught():
    patterns = sudoku_patterns() + [pattern(f"p{i}", unit(0, 1, i), description=f"place digit {i}") for i in range(11)]
    nodes = [
        LadderNode("a", 2, ["ns"], unit(1), "ns", "place the only candidate"),
        LadderNode("b", 2, [p.id for p in patterns[1:]], unit(1), "placing digits", "place the digit"),
        LadderNode("c", 3, ["a", "b"], unit(1), "placing", "place digits"),
    ]
    check = verify(patterns, nodes, PARAMS).checks["horizontal_coherence"]
    assert not check.passed
    assert any("rewords" in d for d in check.details) and any("mixes spans" in d for d in check.details)


def test_an_ungrounded_abstraction_is_caught():
    patterns = sudoku_patterns()
    patterns[0].tally = Tally()
    patterns[1].tally = Tally()
    result = verify(patterns, ladder_for(patterns), PARAMS)
    assert not result.checks["groundedness"].passed and result.status == "failed"


def test_contradicting_patterns_are_flagged_as_a_warning():
    patterns = sudoku_patterns() + [
        pattern(
            "no",
            unit(1, 0.3),
            description="Naked single trap",
            conditions=["a cell has one candidate"],
            actions=["never place the digit"],
        )
    ]
    result = verify(patterns, ladder_for(patterns), PARAMS)
    assert result.contradictions == [("no", "ns")] or result.contradictions == [("ns", "no")]
    assert result.status == "flagged" and not result.checks["non_contradiction"].passed


def test_a_pattern_below_the_utility_floor_fails_that_check():
    patterns = sudoku_patterns() + [weak("weak", unit(0, 1), description="place a guess")]
    check = verify(patterns, ladder_for(patterns), PARAMS).checks["utility_threshold"]
    assert not check.passed and check.details[0].startswith("weak")


def test_a_kept_failure_below_the_utility_floor_passes_that_check():
    patterns = sudoku_patterns() + [
        pattern("guess", unit(0, 1), successes=0, failures=4, description="place a guess: the grid broke")
    ]
    assert patterns[-1].utility < PARAMS.min_utility
    assert verify(patterns, ladder_for(patterns), PARAMS).checks["utility_threshold"].passed


# -- triggers and capture ---------------------------------------------------------------------
def test_threshold_needs_fifty_new_and_ten_minutes():
    now = datetime(2026, 1, 4, 22, 0, tzinfo=UTC)
    recent = (now - timedelta(minutes=5)).isoformat()
    old = (now - timedelta(minutes=11)).isoformat()
    assert not threshold_due(49, None, Schedule(), now)
    assert threshold_due(50, None, Schedule(), now)
    assert not threshold_due(80, recent, Schedule(), now)
    assert threshold_due(80, old, Schedule(), now)


def test_durations_parse_and_bad_ones_are_refused():
    assert parse_duration("30m") == 1800 and parse_duration("1.5h") == 5400 and parse_duration("250ms") == 0.25
    with pytest.raises(ValidationError):
        parse_duration("soon")


def test_watch_runs_periodically_and_on_threshold():
    clock, runs = [0.0], []
    watch(
        runs.append,
        lambda: clock[0] > 100 and len(runs) == 1,
        Schedule(interval_s=1000, check_s=60),
        max_runs=3,
        clock=lambda: clock[0],
        sleep=lambda s: clock.__setitem__(0, clock[0] + s),
    )
    assert runs == ["periodic", "threshold", "periodic"]


def test_capture_validates_and_attaches_session_metadata():
    row = experience_row(
        "m", {"description": "placed 7", "outcome": "success"}, session_id="s1", metadata={"difficulty": "easy"}
    )
    assert row["props"]["session_id"] == "s1" and row["props"]["session_difficulty"] == "easy"
    assert row["id"].startswith("exp-") and "timestamp" in row["dates"]
    with pytest.raises(ValidationError, match="outcome"):
        experience_row("m", {"description": "x", "outcome": "won"})
    for blank in ("", "  \n "):
        with pytest.raises(ValidationError, match="description: must say something"):
            experience_row("m", {"description": blank, "outcome": "success"})
    for wrong in ("just a string", [("description", "x")], None):
        with pytest.raises(ValidationError, match="an experience is a dict of its fields or an Experience, not"):
            experience_row("m", wrong)  # type: ignore[arg-type]
    from graphmind.models import Experience

    assert Experience.model_validate({"id": "old", "description": " ", "outcome": "success"})  # stored before: read


# -- the capture queue -----------------------------------------------------------------------
def test_the_capture_queue_writes_in_batches_and_flush_waits():
    from graphmind.dream.capture_queue import CaptureQueue

    written = []
    queue = CaptureQueue(lambda rows: written.append(list(rows)), flush_ms=50)
    for i in range(5):
        queue.put({"id": i})
    queue.flush()
    assert [r["id"] for batch in written for r in batch] == [0, 1, 2, 3, 4]
    assert len(written) == 1  # all five arrived within one flush window
    queue.close()


def test_a_failed_write_keeps_the_rows_and_raises_until_they_are_stored():
    from graphmind.dream.capture_queue import CaptureQueue
    from graphmind.errors import StoreUnavailableError

    attempts, stored = [], []

    def write(rows):
        attempts.append(len(rows))
        if len(attempts) == 1:
            raise StoreUnavailableError("down")
        stored.extend(rows)

    queue = CaptureQueue(write, flush_ms=1)
    queue.put({"id": 1})
    with pytest.raises(StoreUnavailableError):
        for _ in range(200):  # the background write fails; the next put reports it
            queue.put({"id": 2})
            import time

            time.sleep(0.005)
    queue.flush()  # writes what is left
    assert {r["id"] for r in stored} >= {1, 2}
    queue.close()


def test_transfer_improvement_compares_experiences_that_applied_a_known_pattern_with_the_rest():
    from graphmind.dream.run_record import transfer_improvement

    outcomes = ["success"] * 4 + ["failure", "success", "failure", "progress"]
    known = {0, 1, 2, 3}  # all four applied an earlier pattern and succeeded
    assert transfer_improvement(outcomes, known) == pytest.approx(1.0 / (1.5 / 4) - 1, abs=1e-4)
    assert transfer_improvement(outcomes, {4, 6, 7}) < 0  # applying it went worse
    assert transfer_improvement(outcomes, {0, 1}) is None  # too few applied it to say
    assert transfer_improvement(outcomes, set()) is None
    assert transfer_improvement(["success"] * 3 + ["failure"] * 3, {0, 1, 2}) is None  # no base: rest all failed


def test_the_transfer_basis_says_how_many_earlier_patterns_it_stands_on():
    from graphmind.dream.run_record import transfer_basis

    assert transfer_basis(10, {0: "p1", 1: "p1", 2: "p2"}) == {"applied": 3, "patterns": 2, "new": 7}
    assert transfer_basis(10, {k: "catch-all" for k in range(8)})["patterns"] == 1


def test_check_messages_count_in_the_right_number_and_say_what_is_exempt():
    patterns = sudoku_patterns()
    failing = pattern("fail", unit(0, 0, 1), 0, 3, description="guessing a digit")  # records a failure
    utility = verify([patterns[0], failing], [], PARAMS.model_copy(update={"min_utility": 0.99})).checks
    assert utility["utility_threshold"].message == "1 pattern below the utility threshold"
    assert (
        verify(patterns, [], PARAMS.model_copy(update={"min_utility": 0.99}))
        .checks["utility_threshold"]
        .message.startswith("2 patterns below")
    )
    assert "except 1 recording a failure" in verify([failing], [], PARAMS).checks["utility_threshold"].message
    grounded = verify([pattern("ns", unit(1), 0, 0)], [], PARAMS).checks["groundedness"]
    assert grounded.message == "1 ungrounded item"


def test_deferred_rows_are_idle_only_when_one_run_weighed_them_together_or_they_are_a_full_slice():
    from graphmind.dream.items import seen_together

    a = [exp(0, deferred=True, deferred_by="r1"), exp(1, deferred=True, deferred_by="r1")]
    mixed = [exp(0, deferred=True, deferred_by="r1"), exp(1, deferred=True, deferred_by="r2")]
    assert seen_together(a, 100) and not seen_together(mixed, 100)
    assert seen_together(mixed, 2)  # a slice of a larger backlog of deferred rows
    assert not seen_together([*a, exp(2)], 100) and not seen_together([*a, exp(2)], 3)  # something new


def test_the_waiting_count_holds_the_duplicates_of_deferred_representatives():
    tri = TriageResult([1.0] * 5, [0, 1], {2: (0, 0.9), 3: (0, 0.9), 4: (1, 0.95)})
    assert tri.waiting([0]) == 3 and tri.waiting([1]) == 2 and tri.waiting([]) == 0


def test_stored_vectors_are_used_and_only_the_missing_ones_embedded():
    from graphmind.dream.items import filled

    asked: list[list[str]] = []

    def embed(texts):
        asked.append(texts)
        return np.full((len(texts), 2), 7.0, dtype=np.float32)

    out = filled([np.array([1.0, 0.0]), None, np.array([0.0, 1.0])], ["a", "b", "c"], embed, 2)
    assert asked == [["b"]] and out.tolist() == [[1.0, 0.0], [7.0, 7.0], [0.0, 1.0]]


def test_a_ladder_fails_on_more_misplaced_edges_than_a_true_one_shows_by_chance():
    params = VerticalParams()
    assert not too_many(1, 6, params)  # one contested child never fails a ladder
    assert too_many(2, 6, params) and not too_many(2, 13, params) and too_many(3, 13, params)
    assert not too_many(14, 404, params) and too_many(97, 404, params)  # NAICS: 3.5% of its edges; a corrupted copy
    assert not too_many(79, 2313, params)  # ICD-10's true edges flagged at 3.4%
    assert not too_many(90, 2000, params) and not too_many(200, 5000, params)  # a big true one at 4.5% and 4%
    assert too_many(2, 13, VerticalParams(fail_p=0.1))  # the bar is the parameter's
