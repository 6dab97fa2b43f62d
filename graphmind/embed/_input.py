"""Input checks shared by every embedder: a sequence of valid Unicode strings."""

from __future__ import annotations

from collections.abc import Sequence

from graphmind.errors import ValidationError


def check_texts(texts: Sequence[str]) -> list[str]:
    """``texts`` as a list, else ValidationError (a lone string, bytes, non-text, invalid UTF-8).

    Python turns undecodable bytes into lone surrogates (``surrogateescape``); such a string
    cannot be encoded as UTF-8, so it is refused rather than silently altered.
    """
    if isinstance(texts, (str, bytes, bytearray)):
        raise ValidationError("embed takes a sequence of texts, not a single string", field="texts")
    checked = list(texts)
    for i, text in enumerate(checked):
        if isinstance(text, (bytes, bytearray)):
            raise ValidationError(f"text {i} is bytes, not str: decode it before embedding", field="text")
        if not isinstance(text, str):
            raise ValidationError(f"text {i} must be a string, not {type(text).__name__}", field="text")
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as err:
            raise ValidationError(
                f"text {i} is not valid UTF-8 (undecodable bytes at character {err.start})", field="text"
            ) from None
    return checked
