"""Identifiers in a recall text: which tokens name one thing, and that memories naming them come first."""

from __future__ import annotations

import pytest

from graphmind.recall.identifiers import MAX_IDENTIFIERS, absent, identifiers, named_first, names, telling, unnamed_note


def test_identifiers_mix_letters_and_digits():
    text = "what happened to S-4102 after the v2.3.1 rollout (INC4412, CVE-2024-3094) in report_v2.pdf?"
    assert identifiers(text) == ["S-4102", "v2.3.1", "INC4412", "CVE-2024-3094", "report_v2.pdf"]
    assert identifiers("compare S-4102/S-4110") == ["S-4102", "S-4110"]


@pytest.mark.parametrize(
    "text",
    [
        "diluted 1:100 to 2.5 ml",
        "the 2026 budget, due 2026-11-27",
        "3rd run at 24h",
        "sample S",
        "a 200ms timeout on the 16GB box, the 12th since the 1990s",
        "met at 10am, again at 10:30am",
        "logged at 2026-11-27T10:30:00Z",
    ],
)
def test_numbers_quantities_dates_and_words_are_not_identifiers(text):
    assert identifiers(text) == []


def test_a_text_counts_at_most_sixteen_identifiers():
    many = " ".join(f"T-{n}" for n in range(1000, 1100))
    assert identifiers(many) == [f"T-{n}" for n in range(1000, 1000 + MAX_IDENTIFIERS)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Sample S-4102 needed a dilution", True),
        ("retest of (s-4102): matched", True),
        ("S-4102's peak split", True),
        ("compared S-4102/S-4103 side by side", True),
        ("Sample S-41020 needed a dilution", False),
        ("Sample XS-4102 needed a dilution", False),
        ("Sample S-4102-B needed a dilution", False),
        ("Sample S-4110 needed a dilution", False),
        (None, False),
    ],
)
def test_a_text_names_an_identifier_only_whole(text, expected):
    assert names(text, "S-4102") is expected


def test_memories_naming_the_identifiers_come_first_in_their_order():
    ranked = ["S-4102 and S-4110 compared", "S-4107 alone", "S-4110 diluted", "nothing", "S-4120 split", "more"]
    assert named_first(ranked, ["S-4110"], str) == [
        "S-4102 and S-4110 compared",
        "S-4110 diluted",
        "S-4107 alone",
        "nothing",
        "S-4120 split",
        "more",
    ]
    assert named_first(ranked, ["S-4110", "S-4102"], str)[0] == "S-4102 and S-4110 compared"
    assert named_first(ranked, [], str) == ranked
    assert named_first(ranked, ["S-9999"], str) == ranked


def test_an_identifier_most_candidates_name_tells_none_apart():
    ranked = ["Python3 venv broke", "pinned Python3.11", "python 3 upgrade notes", "Python3 wheels", "Python3 path"]
    assert named_first(ranked, ["Python3"], str) == ranked


def test_full_width_forms_read_as_plain_ones():
    assert identifiers("what about Ｓ-４１０２?") == ["S-4102"]
    assert names("Sample Ｓ-４１０２ was diluted", "S-4102")
    assert named_first(["S-4107 alone", "Ｓ-４１０２ diluted", "nothing"], ["S-4102"], str)[0] == "Ｓ-４１０２ diluted"


def test_identifiers_tell_apart_only_what_some_but_at_most_half_name():
    texts = ["S-4110 diluted", "S-4102 retest", "S-4102 split", "S-4107", None]
    assert telling(texts, ["S-4110", "S-4102", "S-9999"]) == ["S-4110", "S-4102"]
    assert telling(texts[:3], ["S-4102"]) == []


def test_absent_identifiers_are_those_no_text_names_whole():
    texts = ["S-4110 diluted", "S-4102 retest", None]
    assert absent(texts, ["S-4119", "S-4110", "S-411"]) == ["S-4119", "S-411"]
    assert absent([], ["S-4110"]) == ["S-4110"] and absent(texts, []) == []
    assert unnamed_note(["S-4119"]).startswith("no memory names S-4119: ") and unnamed_note(["a1b2", "c3d4"]).endswith(
        "them"
    )
