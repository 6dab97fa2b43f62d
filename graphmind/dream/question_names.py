"""The names in a question, and a text without them (pure).

A name ("Okafor", "Sankt Anna") makes two texts alike in an embedding whatever each says of
it, so a memory about a client's rates reads as near a question about the client's payroll as
one about their rates. ``dream.knowledge.about_only`` judges the memories for a named question
on what is left of both.
A name here is a word whose shape names one thing (``entities.name_spans``: a capital inside a
sentence, an inner capital, a long acronym). Not names: a word in quotes, which is a term
the question asks about ("how should 'Vollzug' be translated"), and an identifier with a digit
("S-4110", "inc4412"), which is what a question about a ticket is about
(``recall.identifiers``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from graphmind.dream.entities import name_spans

_QUOTES = "'\"‘’“”«»„"
_POSSESSIVE = re.compile(r"['’]s$", re.I)
_COMMON = re.compile(r"[^\W\d_]+(?:-[^\W\d_A-Z]+)+")
"""A word joined by hyphens to lower-case words ("X-ray", "follow-up", "part-time"): the subject
of the question, not a name ("geo-router" is left in the question too, as before this rule)."""


_CALENDAR = frozenset(
    """monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat
    january february march july september october november december feb apr jun jul aug sep sept oct nov dec""".split()
)
"""Days and months: capitalised by convention, they name no one thing a memory is about."""
_DATED = frozenset("april may june august jan mar sun".split())
"""Months (and abbreviations) that are first names too ("Jan Kowalski", "May"): a month only
beside a day's number ("4 August", "May 3rd")."""
_DAY_NUMBER = re.compile(r"\d{1,2}(?:st|nd|rd|th)?")
_FIRST_PERSON = re.compile(r"i(?:['’](?:m|ve|d|ll))?", re.I)


def query_names(text: str) -> set[str]:
    """The names of ``text`` (lower-cased, without a possessive 's), but for quoted words,
    identifiers, words joined by hyphens to lower-case ones, days and months, and "I" ("I'm")."""
    return {word for run in name_runs(text) for word in run}


def name_runs(text: str) -> list[tuple[str, ...]]:
    """The names of ``text`` as ``query_names`` finds them, those only spaces part kept
    together as one name ("Harold Tate", "Summit Lifts"), in order."""
    runs: list[list[str]] = []
    last = -1
    for start, end in name_spans(text):
        token = _POSSESSIVE.sub("", text[start:end])
        if (start and text[start - 1] in _QUOTES) or any(ch.isdigit() for ch in token) or _COMMON.fullmatch(token):
            continue
        if token.lower() in _CALENDAR or _FIRST_PERSON.fullmatch(token) or _dated(text, start, end, token):
            continue
        word = token.lower()  # not casefold: "Weißmann" must still match itself
        if runs and text[last:start].isspace():
            runs[-1].append(word)
        else:
            runs.append([word])
        last = end
    return [tuple(run) for run in runs]


def without(text: str, names: Iterable[str]) -> str:
    """``text`` without each of ``names`` as a whole word (with its possessive 's), spaces tidied."""
    for name in names:
        text = _word(name).sub(" ", text)
    return re.sub(r"\s{2,}", " ", text).strip()


def _word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?:['’]s)?(?![\w-])", re.I)


def _dated(text: str, start: int, end: int, token: str) -> bool:
    """Whether ``token`` (at ``start:end`` of ``text``) is a month that is also a first name,
    written beside a day's number."""
    if token.lower() not in _DATED:
        return False
    before, after = text[:start].split()[-1:], text[end:].split()[:1]
    return any(_DAY_NUMBER.fullmatch(w.strip(",.;:?!")) for w in [*before, *after])
