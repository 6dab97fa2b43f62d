"""Sibling ladder nodes never share a name (graphmind/dream/naming.py, distinct_names)."""

from __future__ import annotations

from graphmind.dream.naming import distinct_names

CHILDREN = [
    ["Gave the tenant a rent receipt", "gave a receipt for the deposit"],
    ["Gave notice of the inspection", "inspection notice posted on the door"],
    ["Gave the keys back at checkout", "keys returned and counted"],
]


def test_a_repeated_name_gives_way_to_a_spare_key_phrase_then_to_a_telling_term():
    names = distinct_names(["Gave", "Gave", "gave"], [False] * 3, [[], ["inspection notice"], []], CHILDREN)
    assert names[0] == "Gave" and names[1] == "inspection notice"
    assert names[2] == "Keys"  # its children's most frequent term no sibling's name holds
    assert len({n.lower() for n in names}) == 3


def test_distinct_names_are_left_alone_and_a_stored_node_keeps_its_name():
    assert distinct_names(["Receipts", "Notices", "Keys"], [False] * 3, [[], [], []], CHILDREN) == [
        "Receipts",
        "Notices",
        "Keys",
    ]
    renamed = distinct_names(["Gave", "Gave", "Keys"], [False, True, False], [["rent receipt"], [], []], CHILDREN)
    assert renamed[1] == "Gave" and renamed[0] == "rent receipt"  # the stored one keeps it


def test_a_node_with_nothing_else_to_go_by_keeps_its_name():
    assert distinct_names(["Gave", "Gave"], [False, False], [[], []], [["gave"], ["gave"]]) == ["Gave", "Gave"]


def test_a_term_a_sibling_was_renamed_to_is_not_taken_twice():
    children = [["chill the wort fast"], ["chill the tank overnight", "chill again"], ["chill the cellar", "chill it"]]
    names = distinct_names(["Cooling"] * 3, [False] * 3, [[], [], []], children)
    assert names[:2] == ["Cooling", "Chill"] and names[2] not in ("Chill", "Cooling")


def test_a_word_that_says_nothing_of_what_was_done_is_no_spare_name():
    children = [["seal gone on the hatch"], ["hinge gone", "gone again at the hinge", "latch gone"]]
    names = distinct_names(["Seals", "Seals"], [False, False], [[], []], children)
    assert names == ["Seals", "Hinge"], names  # not "Gone", its most frequent term
