"""Time expressions in a question, read against a reference date (pure logic, no I/O).

`parse_time(question, today)` returns a `TimeWindow` (absolute: "in 2023", "last May", "summer of 2021",
"three weeks ago") and/or a `RelativeShift` ("two weeks before the trip": an offset from an event the
recall must date itself, through `shift_window`). Seasons are the northern hemisphere's.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

MONTHS = {
    m: i + 1
    for i, m in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ]
    )
}
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items()) if m != "may"})
SEASONS = {"spring": (3, 5), "summer": (6, 8), "autumn": (9, 11), "fall": (9, 11), "winter": (12, 2)}
NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "a couple of": 2,
    "a couple": 2,
    "couple of": 2,
    "a few": 3,
    "few": 3,
    "several": 4,
}
UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
_NUM = r"(\d+|a couple of|a couple|couple of|a few|few|several|an|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_REL = re.compile(_NUM + r"\s+(day|week|month|year)s?\s+(before|after|ago|later|earlier)\b")
_SEASON = re.compile(r"\b(spring|summer|autumn|fall|winter)\b(?:\s+(?:of\s+)?(\d{4}))?")
_MONTH = re.compile(
    r"\b(last\s+|this\s+|in\s+|during\s+|of\s+)?("
    + "|".join(sorted(MONTHS, key=len, reverse=True))
    + r")\b\.?(?:\s+(\d{4}))?"
)
_YEAR = re.compile(r"\b(?:in|of|during|since|from)\s+((?:19|20)\d{2})\b")
_LAST = re.compile(r"\blast\s+(week|month|year)\b")


@dataclass(frozen=True)
class TimeWindow:
    """Inclusive date range the question points at, with the words that said so."""

    start: dt.date
    end: dt.date
    said: str

    def contains(self, day: dt.date) -> bool:
        return self.start <= day <= self.end

    def distance_days(self, day: dt.date) -> int:
        """0 inside the window, else days to its nearer edge."""
        return 0 if self.contains(day) else min(abs((day - self.start).days), abs((day - self.end).days))


@dataclass(frozen=True)
class RelativeShift:
    """An offset from an event named elsewhere in the question ("two weeks before the trip": -14)."""

    days: int
    said: str


@dataclass(frozen=True)
class ParsedTime:
    window: TimeWindow | None
    shift: RelativeShift | None


def _month_end(year: int, month: int) -> dt.date:
    nxt = dt.date(year + (month == 12), month % 12 + 1, 1)
    return nxt - dt.timedelta(days=1)


def _number(word: str) -> int:
    return int(word) if word.isdigit() else NUMBERS[word]


def _season(name: str, year: int) -> TimeWindow:
    first, last = SEASONS[name]
    if first > last:  # winter spans the new year: December of `year` to February after
        return TimeWindow(dt.date(year, first, 1), _month_end(year + 1, last), f"{name} {year}")
    return TimeWindow(dt.date(year, first, 1), _month_end(year, last), f"{name} {year}")


def parse_time(question: str, today: dt.date) -> ParsedTime:
    """The time window and the relative shift a question states, each None when absent."""
    text = question.lower()
    shift = None
    window = None
    rel = _REL.search(text)
    if rel:
        amount = _number(rel.group(1)) * UNIT_DAYS[rel.group(2)]
        direction = rel.group(3)
        if direction == "ago":
            day = today - dt.timedelta(days=amount)
            slack = max(3, amount // 4)
            window = TimeWindow(day - dt.timedelta(days=slack), day + dt.timedelta(days=slack), rel.group(0))
        else:
            shift = RelativeShift(-amount if direction in ("before", "earlier") else amount, rel.group(0))
    if window is None and (m := _SEASON.search(text)):
        year = int(m.group(2)) if m.group(2) else today.year - (SEASONS[m.group(1)][0] > today.month)
        window = _season(m.group(1), year)
    if (
        window is None
        and (m := _MONTH.search(text))
        and not (m.group(2) == "may" and not m.group(1) and not m.group(3))
    ):
        month = MONTHS[m.group(2)]
        if m.group(3):
            year = int(m.group(3))
        else:
            last = "last" in (m.group(1) or "")
            this_year = month < today.month or (month == today.month and not last)
            year = today.year if this_year else today.year - 1
        window = TimeWindow(dt.date(year, month, 1), _month_end(year, month), m.group(0).strip())
    if window is None and (m := _YEAR.search(text)):
        year = int(m.group(1))
        window = TimeWindow(dt.date(year, 1, 1), dt.date(year, 12, 31), m.group(0))
    if window is None and (m := _LAST.search(text)):
        unit = m.group(1)
        if unit == "year":
            window = TimeWindow(dt.date(today.year - 1, 1, 1), dt.date(today.year - 1, 12, 31), m.group(0))
        elif unit == "month":
            first = (today.replace(day=1) - dt.timedelta(days=1)).replace(day=1)
            window = TimeWindow(first, _month_end(first.year, first.month), m.group(0))
        else:
            monday = today - dt.timedelta(days=today.weekday() + 7)
            window = TimeWindow(monday, monday + dt.timedelta(days=6), m.group(0))
    return ParsedTime(window, shift)


def shift_window(anchor: dt.date, shift: RelativeShift) -> TimeWindow:
    """The window `shift` points at from the anchor event's date, widened by a quarter of the offset."""
    day = anchor + dt.timedelta(days=shift.days)
    slack = max(3, abs(shift.days) // 4)
    return TimeWindow(day - dt.timedelta(days=slack), day + dt.timedelta(days=slack), shift.said)
