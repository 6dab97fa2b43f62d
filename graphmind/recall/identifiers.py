"""Identifiers in a recall text (sample ids, ticket numbers, versions): memories that name them
come first (pure).

Rank fusion weighs a memory's place in the vector search as much as in the full-text search,
and an embedding reads "S-4110" and "S-4102" as near twins. So a question about sample S-4110
could rank a memory about S-4102 first, because it reads more like the question. An identifier
names one thing: among the candidates, a memory that holds more of the question's identifiers,
whole, ranks above one that holds fewer, whatever its fused score; the full-text search
matches them as phrases.

An identifier is a token of at least ``MIN_LENGTH`` characters that mixes letters and digits
("S-4102", "inc4412", "v2.3.1", "CVE-2024-3094", "report_v2.pdf"). Not identifiers: numbers
alone ("1:100", "2.5", "2026-11-27"), a number with a unit, an ordinal or a time of day
("200ms", "16GB", "12th", "1990s", "10am"), and date-times ("2026-11-27T10:30"). A token most
candidates name ("Python3", "UTF-8" in a mind about them) tells none of them apart, so only
identifiers named by at most half of the candidates reorder them (``named_first``); nor does
one that both more than half the hits asked for (``subject_limit``) and more than a quarter of
the candidates name: a tail number across an airline's log is where the question is, not what
it asks (the topic ranks first), while a ticket's few memories still come first.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")

MIN_LENGTH = 4
MAX_IDENTIFIERS = 16
"""The first this many identifiers of a text count (each is a phrase of the full-text query)."""
_TOKEN = re.compile(r"\w+(?:[-.]\w+)*")
_LETTER = re.compile(r"[^\W\d_]")
_DIGIT = re.compile(r"\d")
_QUANTITY = re.compile(r"\d+(?:[.,]\d+)?[^\W\d_]{1,3}", re.IGNORECASE)
_DATE_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d")


def identifiers(text: str) -> list[str]:
    """The distinct identifiers of ``text`` (at most ``MAX_IDENTIFIERS``), in order, as written
    (full-width and other compatibility forms read as their plain ones: NFKC)."""
    found: dict[str, None] = {}
    for token in (m.group(0) for m in _TOKEN.finditer(_plain(text))):
        if (
            len(token) >= MIN_LENGTH
            and _LETTER.search(token)
            and _DIGIT.search(token)
            and not _QUANTITY.fullmatch(token)
            and not _DATE_TIME.match(token)
        ):
            found.setdefault(token)
            if len(found) == MAX_IDENTIFIERS:
                break
    return list(found)


def _plain(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def _pattern(identifier: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w.-]){re.escape(identifier)}(?![\w]|[-.]\w)", re.IGNORECASE)


def names(text: str | None, identifier: str) -> bool:
    """Whether ``text`` holds ``identifier`` whole (any case): "S-4102" is not in "S-41020" nor
    in "XS-4102", and is in "(S-4102)", "S-4102's" and "S-4102/S-4103"."""
    return bool(text) and _pattern(_plain(identifier)).search(_plain(text or "")) is not None


def named_by(texts: Sequence[str | None], wanted: Sequence[str], most: int | None = None) -> list[list[str]]:
    """For each of ``texts``, the ``wanted`` identifiers it names among those that tell the
    texts apart: named by at least one of them and by at most half (one most of them name
    tells none apart), and, when ``most`` is given, not by both more than ``most`` and more
    than a quarter of them (a tail number across an airline's log is the context of the
    question, not what it is about; a ticket's few memories among many candidates still tell
    it apart). Each text is normalised and each pattern compiled once."""
    plain = [_plain(t or "") for t in texts]
    out: list[list[str]] = [[] for _ in plain]
    for identifier in wanted:
        pattern = _pattern(_plain(identifier))
        hits = [i for i, t in enumerate(plain) if pattern.search(t) is not None]
        context = most is not None and len(hits) > most and len(hits) > len(plain) / 4
        if 0 < len(hits) <= len(plain) / 2 and not context:
            for i in hits:
                out[i].append(identifier)
    return out


def subject_limit(k: int) -> int:
    """How many memories may name an identifier that a recall of ``k`` hits puts first: half
    of them (at least 2)."""
    return max(2, k // 2)


def absent(texts: Sequence[str | None], wanted: Sequence[str]) -> list[str]:
    """The ``wanted`` identifiers none of ``texts`` names, in order: memories found for a text
    naming them only resemble them ("S-4119" asked, "S-4110" found)."""
    plain = [_plain(t or "") for t in texts]
    return [i for i in wanted if not any(_pattern(_plain(i)).search(t) for t in plain)]


def unnamed_note(unnamed: Sequence[str]) -> str:
    """What a reader is told of identifiers no memory names (``absent``)."""
    quoted = ", ".join(unnamed)
    return f"no memory names {quoted}: the memories recalled only resemble {'it' if len(unnamed) == 1 else 'them'}"


def telling(texts: Sequence[str | None], wanted: Sequence[str]) -> list[str]:
    """The ``wanted`` identifiers that tell ``texts`` apart (see ``named_by``), in order."""
    told = {i for found in named_by(texts, wanted) for i in found}
    return [i for i in wanted if i in told]


def by_count(items: Sequence[T], named: Sequence[Sequence[str]]) -> list[T]:
    """``items`` ordered by how many identifiers each names (``named``, from ``named_by``), most
    first, each group in its given order (a stable sort: the fused score decides within it)."""
    return [items[i] for i in sorted(range(len(items)), key=lambda i: -len(named[i]))]


def named_first(items: Sequence[T], wanted: Sequence[str], text_of: Callable[[T], str | None]) -> list[T]:
    """``items`` ordered by how many of the ``wanted`` identifiers that tell them apart each
    names, most first (``named_by``, ``by_count``)."""
    return by_count(items, named_by([text_of(item) for item in items], wanted))
