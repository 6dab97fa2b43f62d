import pytest

from graphmind.errors import ValidationError
from graphmind.ruminate.engine import MAX_STIMULUS_CHARS, check_sender, check_stimulus


@pytest.mark.parametrize("bad", ["", "   ", "\n\t ", None, 42, b"bytes", "caf\udce9"])
def test_no_stimulus_or_not_text_is_a_validation_error(bad):
    with pytest.raises(ValidationError, match="stimulus"):
        check_stimulus(bad)


def test_a_stimulus_is_kept_as_given_up_to_the_limit_and_cut_at_a_space_beyond_it():
    assert check_stimulus("  Hey Felix,   the race condition is back. ") == (
        "Hey Felix, the race condition is back.",
        False,
    )
    text = "race condition " * 4000
    long, truncated = check_stimulus(text)
    assert truncated and len(long) <= MAX_STIMULUS_CHARS and long.endswith("…")
    assert text.startswith(long[:-1] + " ")  # cut at a word boundary
    unbroken, truncated = check_stimulus("x" * 50_000)
    assert truncated and len(unbroken) == MAX_STIMULUS_CHARS


def test_sender_is_optional_but_not_empty_or_huge():
    assert check_sender(None) is None and check_sender(" Nicolas ") == "Nicolas"
    for bad in ("", "  ", "n" * 201, 7):
        with pytest.raises(ValidationError, match="sender"):
            check_sender(bad)
