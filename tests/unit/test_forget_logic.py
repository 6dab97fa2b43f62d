"""Forgetting's pure logic: what loses its support, and where forgotten text was copied."""

from __future__ import annotations

import json

import pytest

from graphmind.dream.params import DreamParams
from graphmind.forget._logic import (
    LONGEST_INDEXED_TERM,
    MARK,
    Dependent,
    ForgetParams,
    candidate_terms,
    fragments,
    is_plain_word,
    judge,
    memory_texts,
    minimum_support,
    scrub_text,
    scrub_value,
    scrubbed,
    term_pattern,
    turn_gaps,
    unaskable,
)

P = ForgetParams()


def dep(uid: str, label: str, *sources: tuple[str, str], source_type: str | None = None) -> Dependent:
    return Dependent(uid=uid, id=uid, label=label, sources=tuple(sources), source_type=source_type)


def actions(deps: list[Dependent], forgotten: list[str], cascade: bool = True) -> dict[str, str]:
    return {j.id: j.action for j in judge(deps, forgotten, P, cascade=cascade)}


def test_a_pattern_needs_as_many_experiences_as_dream_clusters_need():
    assert P.min_pattern_experiences == DreamParams().min_cluster_size
    three = dep("p", "Pattern", *((f"e{i}", "EXEMPLIFIES") for i in range(3)))
    four = dep("q", "Pattern", *((f"e{i}", "EXEMPLIFIES") for i in range(4)))
    assert actions([three, four], ["e0"]) == {"p": "remove", "q": "unverify"}


def test_removal_climbs_the_ladder_to_a_fixed_point():
    pattern = dep("p", "Pattern", *((f"e{i}", "EXEMPLIFIES") for i in range(3)))
    kept = dep("q", "Pattern", *((f"e{i}", "EXEMPLIFIES") for i in range(1, 5)))
    lonely = dep("a", "Abstraction", ("p", "SUBSUMES"))
    shared = dep("b", "Abstraction", ("p", "SUBSUMES"), ("q", "SUBSUMES"))
    top = dep("c", "Abstraction", ("a", "SUBSUMES"))
    got = actions([top, lonely, shared, pattern, kept], ["e0"])
    assert got == {"p": "remove", "a": "remove", "c": "remove", "b": "unverify"}  # q lost nothing


def test_a_crystal_needs_two_pieces_of_evidence_and_a_finding_one_citation():
    deps = [
        dep("c1", "Crystal", ("e0", "EVIDENCED_BY"), ("e1", "EVIDENCED_BY")),
        dep("c2", "Crystal", ("e0", "EVIDENCED_BY"), ("e1", "EVIDENCED_BY"), ("e2", "EVIDENCED_BY")),
        dep("f1", "Finding", ("e0", "CITES")),
        dep("f2", "Finding", ("e0", "CITES"), ("e1", "CITES")),
        dep("r", "RuminationRun", ("f1", "FOUND"), ("f2", "FOUND")),
    ]
    assert actions(deps, ["e0"]) == {"c1": "remove", "c2": "keep", "f1": "remove", "f2": "keep", "r": "keep"}


def test_only_a_memory_locus_goes_with_its_memory_and_residues_stay():
    deps = [
        dep("l1", "Locus", ("e0", "REFERS_TO"), source_type="MEMORY"),
        dep("l2", "Locus", ("e0", "REFERS_TO"), source_type="ADJACENT"),
        dep("r", "Residue", ("l1", "OF_STEP"), ("e0", "DRAWS_ON")),
    ]
    assert actions(deps, ["e0"]) == {"l1": "remove", "l2": "keep", "r": "keep"}
    assert minimum_support(deps[2], P) == 0


def test_without_cascade_everything_derived_is_listed_and_kept():
    pattern = dep("p", "Pattern", *((f"e{i}", "EXEMPLIFIES") for i in range(3)))
    above = dep("a", "Abstraction", ("p", "SUBSUMES"))
    assert actions([pattern, above], ["e0"], cascade=False) == {"p": "keep", "a": "keep"}
    judged = {j.id: j for j in judge([pattern, above], ["e0"], P, cascade=False)}
    assert (judged["a"].via, judged["a"].support_before, judged["a"].support_after) == (("SUBSUMES",), 1, 1)


def test_support_counts_only_the_edges_that_make_the_node():
    """A pattern's SUBSUMES parent or CONTRADICTS neighbour is not its support."""
    p = dep("p", "Pattern", ("e0", "EXEMPLIFIES"), ("e1", "EXEMPLIFIES"), ("e2", "EXEMPLIFIES"), ("x", "CITES"))
    judged = judge([p], ["e0"], P, cascade=True)
    assert [(j.support_before, j.support_after, j.action) for j in judged] == [(3, 2, "remove")]


def test_fragments_skip_short_text_and_include_json_and_collapsed_forms():
    frags = fragments(["success", 'He said "go"\n  now, right away'], P)
    assert "success" not in frags
    assert 'He said "go"\n  now, right away' in frags
    assert 'He said "go" now, right away' in frags
    assert json.dumps('He said "go"\n  now, right away')[1:-1] in frags


SECRET = "Felix saw the ledger race at midnight and never told the team"


def test_scrub_cuts_whole_copies_truncated_copies_and_long_pieces():
    frags = fragments([SECRET], P)
    assert scrub_text(f"Quote: '{SECRET}'. End.", frags, P) == f"Quote: '{MARK}'. End."
    assert scrub_text(f"- {SECRET[:40]}…\n- other", frags, P) == f"- {MARK}…\n- other"
    assert scrub_text(SECRET[10:50], frags, P) == MARK  # a long piece from the middle
    assert scrub_text(json.dumps({"found": SECRET}), frags, P) == json.dumps({"found": MARK})


def test_scrub_leaves_text_that_only_shares_words_or_a_short_piece():
    frags = fragments([SECRET], P)
    for text in ("the ledger race", "Felix saw the ledger", "A race at midnight in the ledger, told to the team"):
        assert scrub_text(text, frags, P) == text


@pytest.mark.parametrize("corrupt", [SECRET.upper(), SECRET.replace("ledger", "ledgr")])
def test_a_copy_that_differs_early_is_not_claimed_as_verbatim(corrupt):
    """The check can fail: altered text before min_copy_chars is not a verbatim copy."""
    assert scrub_text(corrupt, fragments([SECRET], P), P) == corrupt


def test_lists_drop_whole_copies_and_forgotten_ids():
    frags = fragments([SECRET], P)
    assert scrub_value([SECRET, "kept note", "e9"], frags, ["e9"], P) == ["kept note"]
    assert scrub_value(3, frags, ["e9"], P) == 3
    assert scrubbed({"a": SECRET, "b": "fine", "c": ["e1"]}, frags, ["e9"], P) == {"a": MARK}


def test_memory_texts_read_the_text_fields_and_text():
    props = {"description": SECRET, "outcome": "failure", "text": "other text", "conditions": ["c one", ""]}
    assert memory_texts(props, ("description", "conditions")) == [SECRET, "c one", "other text"]


def test_candidate_terms_are_the_longer_words_once_each():
    assert candidate_terms(["The fennelwort trick, the Fennelwort notes: ok r2"], P) == ["fennelwort", "trick", "notes"]


def test_distinctive_terms_go_as_whole_words_and_list_items_made_of_them_are_dropped():
    terms = term_pattern(["fennelwort", "binder"])
    assert scrub_value("keep and Fennelwort; binders stay", [], [], P, terms) == f"keep and {MARK}; binders stay"
    assert scrub_value(["ledger", "fennelwort", "blue binder"], [], [], P, terms) == ["ledger", f"blue {MARK}"]
    assert term_pattern([]) is None


def _bench():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "bench" / "forget_quality.py"
    spec = importlib.util.spec_from_file_location("forget_quality", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_scrub_beats_the_whole_copy_baseline_on_the_labelled_set_and_a_corrupted_set_shows_it():
    q = _bench()
    cases = q.load()
    removed, kept = q.score(cases, q.graphmind_scrub)
    base_removed, _ = q.score(cases, q.whole_copy)
    assert removed >= base_removed + 0.5 and kept >= 0.7
    # corrupted: every case forgets a text that is not the one its derived node came from
    shifted = [{**c, "forgotten": cases[(i + 5) % len(cases)]["forgotten"]} for i, c in enumerate(cases)]
    assert q.score(shifted, q.graphmind_scrub)[0] < removed - 0.5


def test_compound_tokens_of_short_parts_are_terms_and_are_cut_whole():
    terms = candidate_terms(["Agent vm-ci-14 ran out; the code is 9-1-5-5, long-term."], P)
    assert "vm-ci-14" in terms and "9-1-5-5" in terms and "long-term" not in terms
    assert not is_plain_word("vm-ci-14") and is_plain_word("agent")
    pattern = term_pattern(["vm-ci-14"])
    assert scrub_value("in vm-ci-14: agents fill up", [], [], P, pattern) == f"in {MARK}: agents fill up"


def test_a_run_of_forgotten_turns_is_bridged_and_counted_per_session():
    chain = ["t1", "t2", "t3", "t4", "t5"]

    def turn(i: int) -> dict:
        return {
            "uid": chain[i],
            "previous": chain[i - 1] if i else None,
            "next": chain[i + 1] if i + 1 < len(chain) else None,
            "session": "s",
        }

    links, removed = turn_gaps([turn(1), turn(2)], ["t2", "t3"])
    assert links == [{"from": "t1", "to": "t4"}] and removed == {"s": 2}
    links, removed = turn_gaps([turn(0), turn(4)], ["t1", "t5"])  # the ends: nothing to bridge
    assert links == [] and removed == {"s": 2}
    assert turn_gaps([turn(1), turn(3)], ["t2", "t4"])[0] == [{"from": "t1", "to": "t3"}, {"from": "t3", "to": "t5"}]


def test_a_word_longer_than_the_index_keeps_is_unaskable_and_a_shorter_one_is_not():
    long_word, word = "k" * (LONGEST_INDEXED_TERM + 1), "k" * LONGEST_INDEXED_TERM
    assert unaskable(candidate_terms([f"the {long_word} and {word} here"], P)) == [long_word]
