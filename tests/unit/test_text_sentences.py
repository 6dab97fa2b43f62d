"""Sentence splitting: decimals, versions and abbreviations never cut a sentence, and real
sentence ends still do; the offline pattern extraction keeps whole numbers in its clauses."""

from __future__ import annotations

import pytest

from graphmind.dream.offline import extract_pattern
from graphmind.prompts.dream import ExperienceItem, PatternExtractionInput
from graphmind.text import first_sentence, sentences, stem


@pytest.mark.parametrize(
    "text",
    [
        "Packet loss fell to 0.3% after the change.",
        "Throughput rose 2.1x on the 10.0.0.0/8 network.",
        "Upgrade to v1.2.3 before running Python 3.11 scripts.",
        "Use a gentler method, e.g. a slow simmer over low heat.",
        "Skip the marinade, i.e. season just before cooking.",
        "Cast iron vs. stainless steel made no difference.",
        "Dr. Lee and Prof. Okafor reviewed the recipe.",
        "See Fig. 3 and eq. 2 for the curve.",
        "Bring flour, sugar etc. and mix them.",
        "J. R. Tolkien liked his eggs soft.",
        "Bake at 9 a.m. on weekdays only.",
        "Room No. 5 had the warmest oven.",
        "It waited... then the router came back.",
        "Edit config.yaml and restart nginx.service now.",
    ],
)
def test_text_that_is_one_sentence_is_not_cut(text):
    assert sentences(text) == [text]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("The loss was 2. Then it diverged.", ["The loss was 2.", "Then it diverged."]),
        ("We pinned v1.2.3. The build passed.", ["We pinned v1.2.3.", "The build passed."]),
        ("Bring flour, sugar, etc. Then bake it.", ["Bring flour, sugar, etc.", "Then bake it."]),
        ("We left at 9 a.m. The oven was cold.", ["We left at 9 a.m.", "The oven was cold."]),
        ("The answer was no. Then we retried.", ["The answer was no.", "Then we retried."]),
        ("It failed! Why? nobody knew.", ["It failed!", "Why?", "nobody knew."]),
        ('He said "stop." Then he left.', ['He said "stop."', "Then he left."]),
        ("the link dropped. we rebooted it.", ["the link dropped.", "we rebooted it."]),
        ("Wait... The router is back.", ["Wait...", "The router is back."]),
        ("1. Preheat the oven. 2. Whisk the eggs.", ["1. Preheat the oven.", "2. Whisk the eggs."]),
        ("first line\nsecond line", ["first line", "second line"]),
    ],
)
def test_sentence_ends_still_cut(text, expected):
    assert sentences(text) == expected


def test_fine_cuts_and_first_sentence():
    assert sentences("rate 0.5 — then 1.5; done", fine=True) == ["rate 0.5", "then 1.5", "done"]
    assert first_sentence("Latency rose 3.5 ms, e.g. on eth0. Then it fell.") == "Latency rose 3.5 ms, e.g. on eth0."
    assert first_sentence("   ") == ""


def test_stem_joins_forms_of_a_word_but_not_short_words():
    assert stem("brining") == stem("brined") == stem("brine")
    assert stem("lowering") == stem("lowered") == "lower"
    assert stem("rates") == "rate" and stem("salt") == "salt"


def test_an_offline_pattern_keeps_decimals_in_its_description():
    items = [
        ExperienceItem(
            id=f"e{i}",
            description=f"jumbo frames: MTU 9000 cost 2.{i}% more CPU, throughput rose 1.{i}x. Kept it.",
            outcome="success",
        )
        for i in range(3)
    ]
    out = extract_pattern(PatternExtractionInput(experiences=items, domain="network ops"), ())
    assert any("2.0% more CPU" in a or "1.0x" in a for a in out.actions), out.actions
    assert not any(a.rstrip().endswith(("cost 2", "rose 1")) for a in out.actions), out.actions
