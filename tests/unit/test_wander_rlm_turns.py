"""Reading a REPL dweller's reply: ```repl blocks in order, and a FINAL(...) written in prose."""

from graphmind.wander.rlm import read_turn


def test_blocks_in_order_and_a_final_line_in_prose():
    text = (
        "I'll check two things.\n```repl\nx = 1\n```\nthen\n```repl \nprint(x)\n```\n"
        'And so:\n\nFINAL({"connection": "a", "themes": ["b"]}) — that\'s it.'
    )
    assert read_turn(text) == (["x = 1", "print(x)"], {"connection": "a", "themes": ["b"]})


def test_a_final_inside_a_block_is_the_blocks_not_the_proses():
    blocks, final = read_turn("```repl\nFINAL({'a': 1})\n```")
    assert blocks == ["FINAL({'a': 1})"] and final is None


def test_prose_that_only_mentions_final_or_gives_no_json_has_no_final():
    assert read_turn("I will call FINAL() once I know more.") == ([], None)
    assert read_turn("FINAL({not json})\n") == ([], None)
    assert read_turn("Plain words, no code.") == ([], None)
    assert read_turn('> FINAL({"a": 1})')[1] == {"a": 1}  # quoted lines still count
