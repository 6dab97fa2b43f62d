"""Phase timings for reports: how long each step of a run took."""

from __future__ import annotations

import time


class Stopwatch:
    """Time spent between successive ``lap`` calls, by phase name, in seconds × ``scale``."""

    def __init__(self, *, scale: float = 1.0, digits: int = 4) -> None:
        self.laps: dict[str, float] = {}
        self._scale = scale
        self._digits = digits
        self._last = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps[name] = round((now - self._last) * self._scale, self._digits)
        self._last = now
