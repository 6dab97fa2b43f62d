"""Time expressions in questions, read against a reference date (issue 26, item 2)."""

from __future__ import annotations

import datetime as dt

import pytest

from graphmind.recall.timeparse import RelativeShift, TimeWindow, parse_time, shift_window

TODAY = dt.date(2024, 6, 15)


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("What did she plant in 2023?", dt.date(2023, 1, 1), dt.date(2023, 12, 31)),
        ("Where did he sail last May?", dt.date(2024, 5, 1), dt.date(2024, 5, 31)),
        ("What happened in March 2022?", dt.date(2022, 3, 1), dt.date(2022, 3, 31)),
        ("What did they do in September?", dt.date(2023, 9, 1), dt.date(2023, 9, 30)),
        ("What did Rui find out in spring 2021?", dt.date(2021, 3, 1), dt.date(2021, 5, 31)),
        ("Who visited in the winter of 2022?", dt.date(2022, 12, 1), dt.date(2023, 2, 28)),
        ("What annoyed Owen in the summer of 2023?", dt.date(2023, 6, 1), dt.date(2023, 8, 31)),
        ("What happened last month?", dt.date(2024, 5, 1), dt.date(2024, 5, 31)),
        ("What did she buy last year?", dt.date(2023, 1, 1), dt.date(2023, 12, 31)),
    ],
)
def test_absolute_windows(question: str, start: dt.date, end: dt.date) -> None:
    parsed = parse_time(question, TODAY)
    assert parsed.window is not None
    assert (parsed.window.start, parsed.window.end) == (start, end)
    assert parsed.shift is None


def test_last_month_name_in_that_month_means_a_year_ago() -> None:
    window = parse_time("what did he do last June?", TODAY).window
    assert window is not None and window.start == dt.date(2023, 6, 1)


def test_ago_is_a_window_around_the_day() -> None:
    window = parse_time("What did she start three weeks ago?", TODAY).window
    assert window is not None and window.contains(TODAY - dt.timedelta(days=21))
    assert not window.contains(TODAY)


@pytest.mark.parametrize(
    ("question", "days"),
    [
        ("What did X do two weeks before the trip?", -14),
        ("What did he plant a couple of months before her injury?", -60),
        ("What happened a few days after the wedding?", 3),
        ("Where was she 10 days later?", 10),
    ],
)
def test_relative_shifts(question: str, days: int) -> None:
    parsed = parse_time(question, TODAY)
    assert parsed.shift is not None and parsed.shift.days == days


def test_shift_window_is_around_anchor_plus_offset() -> None:
    window = shift_window(dt.date(2024, 3, 1), RelativeShift(-14, "two weeks before"))
    assert window.contains(dt.date(2024, 2, 16))
    assert not window.contains(dt.date(2024, 3, 1))


@pytest.mark.parametrize(
    "question",
    ["What breed is her dog?", "May I ask where he works?", "What did he say in Maytember?", "Who won in 12?"],
)
def test_no_time_expression_gives_nothing(question: str) -> None:
    parsed = parse_time(question, TODAY)
    assert parsed.window is None and parsed.shift is None


def test_distance_outside_window() -> None:
    window = TimeWindow(dt.date(2024, 1, 1), dt.date(2024, 1, 31), "january")
    assert window.distance_days(dt.date(2024, 1, 10)) == 0
    assert window.distance_days(dt.date(2024, 2, 5)) == 5
