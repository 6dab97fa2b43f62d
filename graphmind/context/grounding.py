"""The Context Object's grounding check: no fact in it that its sources do not hold.

An *atom* is a piece of text that could be invented: a quoted passage, a file path, a date, a
number, a name. Each atom of a section is checked against the section's sources (the
properties of the memories it cites, the stimulus and its sender, the mind's identity):

- quote: the quoted text appears in a source (case and spacing ignored);
- path: the path appears in a source;
- date: a source holds the same day (a timestamp property, or the same words);
- number: a source holds the same value, where a 0..1 property also stands for its percent
  (0.85 <-> 85%; written with "%", also rounded as the templates print it: 0.5312 <-> 53% or
  53.1%, never a bare 53), "35K" for 35,000, and a template's own counts are checked where they are
  made ("Dependencies: N files" must equal the files listed under it);
- name: a capitalised word that does not open a sentence appears in a source or in the
  templates' own words. A word that opens a sentence is not checked as a name: without a
  dictionary it cannot be told from an ordinary word (a limit, written down here). The
  first-person pronoun ("I", "I'm", "I've", "I'd", "I'll") is never a name, wherever it stands.

List markers ("1. "), the trust scale ("/1.0") and "#N" recurrences are template form, not data:
the recurrence number itself is checked like any number.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from graphmind.text import leaves

_MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split()
_QUOTE = re.compile(r'"([^"\n]+)"|“([^”\n]+)”')
_PATH = re.compile(
    r"(?<![\w/.])(?:[\w.-]+/)*[\w-]+\.(?:py|pyi|js|ts|tsx|jsx|go|rs|java|kt|rb|c|h|"
    r"cc|cpp|hpp|cs|md|json|jsonl|ya?ml|toml|ini|cfg|sql|cypher|sh|txt|csv|html|css)\b"
    r"|(?<![\w/.])[\w.-]+(?:/[\w.-]+)+"
)
_MONTH_DATE = re.compile(
    r"\b(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?"
    r"|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\b\.? (\d{1,2})(?!\d)(?:st|nd|rd|th)?(?:, (\d{4}))?(?: (\d{1,2}):(\d{2})(?::\d{2})?)?"
    r"(?: UTC(?:[+-]\d{2}:\d{2})?)?"
)
_ISO_DATE = re.compile(
    r"\b(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?"
    r"(?:Z|[+-]\d{2}:?\d{2})?)?"
)
_NUMBER = re.compile(r"(?<![\w.])([€$£]?)(\d+(?:,\d{3})*(?:\.\d+)?)([KkMm%]?)(?![\w])")
_DEPENDENCIES = re.compile(r"Dependencies: (\d+) files?\n((?:- .*(?:\n|$))*)")
_TEMPLATE_FORM = re.compile(r"^\s*\d+\.\s|/1\.0\b|#(?=\d)", re.MULTILINE)
_NAME = re.compile(r"\b[A-Z][\w'’-]*")
_PRONOUN = re.compile(r"I(?:['’](?:m|ve|d|ll))?", re.IGNORECASE)
_SENTENCE_START = re.compile(r"(?:^|[.!?:]\s+|\n\s*(?:[-*•]\s+|❌\s+|\d+\.\s+)?|[-•]\s+|❌\s+|\(\s*)$")


@dataclass(frozen=True)
class Atom:
    """One checkable piece of a section."""

    kind: str  # quote | path | date | number | name
    text: str


class Sources:
    """What a section may say: its sources' text, numbers and dates, for quick lookup."""

    def __init__(self, values: Iterable[Any], allowed_words: Iterable[str] = ()):
        texts: list[str] = []
        self.numbers: set[float] = set()
        self.rounded_percents: set[float] = set()
        self.days: set[date] = set()
        for value in leaves(list(values)):
            if isinstance(value, bool):
                continue
            if isinstance(value, int | float):
                self._add_number(float(value))
                texts.append(str(value))
            elif isinstance(value, datetime | date):
                self.days.add(value.date() if isinstance(value, datetime) else value)
                texts.append(value.isoformat())
            elif isinstance(value, str):
                texts.append(value)
        self.text = _normal(" \n ".join(texts))
        # a word in quotes ("the other two 'Sie'") is the word: stripped as the atoms are
        self.words = {w.strip("'’-") for w in re.findall(r"[\w'’-]+", self.text)} | {w.lower() for w in allowed_words}
        for text in texts:
            for atom in _numbers(text):
                self.numbers.update(_values(atom))
            self.days.update(_days(text))

    def _add_number(self, value: float) -> None:
        self.numbers.add(round(value, 6))
        if 0 <= value <= 1:  # a rate: its percent; written with "%", also rounded (0.5312: 53%, 53.1%)
            self.numbers.add(round(value * 100, 6))
            self.rounded_percents.update({float(round(value * 100)), round(value * 100, 1)})

    def holds(self, atom: Atom) -> bool:
        if atom.kind in ("quote", "path"):
            return _normal(atom.text) in self.text
        if atom.kind == "date":
            days = _days(atom.text)
            return bool(days) and days <= self.days or _normal(atom.text) in self.text
        if atom.kind == "number":
            values = _values(atom.text)
            rounded = atom.text.strip().endswith("%") and bool(values & self.rounded_percents)
            return bool(values & self.numbers) or rounded or _whole(_normal(atom.text), self.text)
        return atom.text.lower().strip("'’-") in self.words


def atoms(text: str) -> list[Atom]:
    """Every atom of ``text``, in order of kind (quotes, paths, dates, numbers, names)."""
    found: list[Atom] = []
    rest = _DEPENDENCIES.sub(lambda m: "Dependencies: files\n" + m.group(2), text)
    rest = _TEMPLATE_FORM.sub(" ", rest)
    for pattern, kind in ((_QUOTE, "quote"), (_PATH, "path"), (_MONTH_DATE, "date"), (_ISO_DATE, "date")):
        for match in pattern.finditer(rest):
            text = next(g for g in match.groups() if g) if kind == "quote" else match.group(0)
            found.append(Atom(kind, text))
        if kind != "quote":  # a quote's numbers and names are checked again, one by one
            rest = pattern.sub(" ", rest)
    found += [Atom("number", m.group(0)) for m in _NUMBER.finditer(rest)]
    found += [
        Atom("name", m.group(0))
        for m in _NAME.finditer(rest)
        if not _SENTENCE_START.search(rest[: m.start()]) and not _PRONOUN.fullmatch(m.group(0))
    ]
    return found


def unsupported(text: str, sources: Sources) -> list[Atom]:
    """The atoms of ``text`` that ``sources`` do not hold, and template counts that are wrong."""
    missing = [atom for atom in atoms(text) if not sources.holds(atom)]
    for match in _DEPENDENCIES.finditer(text):
        listed = len([line for line in match.group(2).splitlines() if line.startswith("- ")])
        if int(match.group(1)) != listed:
            missing.append(Atom("number", f"Dependencies: {match.group(1)} files"))
    return missing


def _whole(number: str, text: str) -> bool:
    """``number`` stands in ``text`` as a number of its own, not as digits of a longer one
    ("53" is not in "0.5312" or "1530")."""
    return re.search(rf"(?<![\w.]){re.escape(number)}(?![\w]|\.\d)", text) is not None


def _normal(text: str) -> str:
    return " ".join(text.replace("’", "'").lower().split())


def _numbers(text: str) -> list[str]:
    return [m.group(0) for m in _NUMBER.finditer(text)]


def _values(atom: str) -> set[float]:
    match = _NUMBER.fullmatch(atom.strip())
    if not match:
        return set()
    value = float(match.group(2).replace(",", ""))
    suffix = match.group(3).lower()
    values = {value}
    if suffix == "k":
        values.add(value * 1_000)
    elif suffix == "m":
        values.add(value * 1_000_000)
    elif suffix == "%":
        values.add(value / 100)
    return {round(v, 6) for v in values}


def _days(text: str) -> set[date]:
    days: set[date] = set()
    for match in _ISO_DATE.finditer(text):
        try:
            days.add(date(int(match.group(1)), int(match.group(2)), int(match.group(3))))
        except ValueError:
            continue
    for match in _MONTH_DATE.finditer(text):
        if match.group(3):
            try:
                days.add(date(int(match.group(3)), _MONTHS.index(match.group(1).lower()[:3]) + 1, int(match.group(2))))
            except ValueError:
                continue
    return days
