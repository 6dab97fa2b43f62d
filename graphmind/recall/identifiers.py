"""Identifiers in a recall text (sample ids, ticket numbers, versions): memories that name them
come first (pure).

Rank fusion weighs a memory's place in the vector search as much as in the full-text search,
and an embedding reads "S-4110" and "S-4102" as near twins. So a question about sample S-4110
could rank a memory about S-4102 first, because it reads more like the question. An identifier
names one thing: a memory that holds every identifier of the question, whole, ranks above one
that holds fewer, whatever its fused score; the full-text search matches them as phrases.

An identifier is a token of at least ``MIN_LENGTH`` characters that mixes letters and digits
("S-4102", "inc4412", "v2.3.1", "CVE-2024-3094"); numbers alone ("1:100", "2.5", "2026")
and short forms ("3rd", "24h") are quantities or words, not names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")

MIN_LENGTH = 4
_TOKEN = re.compile(r"[\w]+(?:[-./][\w]+)*")
_LETTER = re.compile(r"[^\W\d_]")
_DIGIT = re.compile(r"\d")


def identifiers(text: str) -> list[str]:
    """The distinct identifiers of ``text``, in order, as written."""
    found = (m.group(0) for m in _TOKEN.finditer(text))
    return list(dict.fromkeys(t for t in found if len(t) >= MIN_LENGTH and _LETTER.search(t) and _DIGIT.search(t)))


def names(text: str | None, identifier: str) -> bool:
    """Whether ``text`` holds ``identifier`` whole (any case): "S-4102" is not in "S-41020" nor
    in "XS-4102", and is in "(S-4102)" and "S-4102's"."""
    if not text:
        return False
    pattern = rf"(?<![\w./-]){re.escape(identifier)}(?![\w]|[-./]\w)"
    return re.search(pattern, text, re.IGNORECASE) is not None


def named_first(items: Sequence[T], wanted: Sequence[str], text_of: Callable[[T], str | None]) -> list[T]:
    """``items`` ordered by how many of the ``wanted`` identifiers each names (most first), each
    group in its given order (a stable sort: the fused score decides within it)."""
    if not wanted:
        return list(items)
    return sorted(items, key=lambda item: -sum(names(text_of(item), i) for i in wanted))
