"""When to dream (FR-2.2.1): session complete, threshold, periodic, manual.

The threshold trigger fires when at least ``min_new`` experiences no dream has seen have
gathered and the last dream finished at least ``min_gap_s`` ago (defaults 50 and 10 min).
``watch`` runs the periodic trigger (default every 30 min) and checks the threshold between
periods.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from graphmind.dream.params import Trigger
from graphmind.errors import ValidationError
from graphmind.models.base import as_datetime

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$")
_UNIT_S = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, None: 1.0}


@dataclass(frozen=True)
class Schedule:
    interval_s: float = 1800.0
    min_new: int = 50
    min_gap_s: float = 600.0
    check_s: float = 60.0


def parse_duration(text: str) -> float:
    """Seconds in "30m", "10s", "1.5h", "250ms" or a bare number of seconds."""
    match = _DURATION.match(text or "")
    if not match or float(match.group(1)) <= 0:
        raise ValidationError(f"{text!r} is not a duration: write e.g. 30m, 10s, 1h", field="interval")
    return float(match.group(1)) * _UNIT_S[match.group(2)]


def threshold_due(
    new_experiences: int, last_finished_at: str | None, schedule: Schedule, now: datetime | None = None
) -> bool:
    if new_experiences < schedule.min_new:
        return False
    if last_finished_at is None:
        return True
    last = as_datetime(last_finished_at)
    return last is None or ((now or datetime.now(UTC)) - last).total_seconds() >= schedule.min_gap_s


def watch(
    run: Callable[[Trigger], object],
    threshold: Callable[[], bool],
    schedule: Schedule,
    *,
    max_runs: int | None = None,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Dream every ``interval_s`` (periodic) and whenever ``threshold()`` says so; returns
    how many runs were made (stops after ``max_runs`` when given)."""
    runs, next_period = 0, clock()
    while max_runs is None or runs < max_runs:
        now = clock()
        if now >= next_period:
            run("periodic")
            runs, next_period = runs + 1, now + schedule.interval_s
        elif threshold():
            run("threshold")
            runs += 1
        else:
            sleep(max(0.0, min(schedule.check_s, next_period - now)))
    return runs
