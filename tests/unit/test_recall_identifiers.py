"""Identifiers in a recall text: which tokens name one thing, and that memories naming them come first."""

from __future__ import annotations

import pytest

from graphmind.recall.identifiers import identifiers, named_first, names


def test_identifiers_mix_letters_and_digits():
    text = "what happened to S-4102 after the v2.3.1 rollout (INC4412, CVE-2024-3094)?"
    assert identifiers(text) == ["S-4102", "v2.3.1", "INC4412", "CVE-2024-3094"]


@pytest.mark.parametrize("text", ["diluted 1:100 to 2.5 ml", "the 2026 budget", "3rd run at 24h", "sample S"])
def test_numbers_short_forms_and_words_are_not_identifiers(text):
    assert identifiers(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Sample S-4102 needed a dilution", True),
        ("retest of (s-4102): matched", True),
        ("S-4102's peak split", True),
        ("Sample S-41020 needed a dilution", False),
        ("Sample XS-4102 needed a dilution", False),
        ("Sample S-4102-B needed a dilution", False),
        ("Sample S-4110 needed a dilution", False),
        (None, False),
    ],
)
def test_a_text_names_an_identifier_only_whole(text, expected):
    assert names(text, "S-4102") is expected


def test_memories_naming_every_identifier_come_first_in_their_order():
    ranked = ["S-4102 and S-4110 compared", "S-4107 alone", "S-4110 diluted", "S-4110 retest", "nothing"]
    assert named_first(ranked, ["S-4110"], str) == [
        "S-4102 and S-4110 compared",
        "S-4110 diluted",
        "S-4110 retest",
        "S-4107 alone",
        "nothing",
    ]
    assert named_first(ranked, ["S-4110", "S-4102"], str)[0] == "S-4102 and S-4110 compared"
    assert named_first(ranked, [], str) == ranked
