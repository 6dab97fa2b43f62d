"""Small dreaming items for the pure-logic tests: unit vectors and patterns."""

from __future__ import annotations

import numpy as np

from graphmind.dream.items import PatternState, Tally


def unit(*values: float) -> np.ndarray:
    """An 8-dimensional unit vector with ``values`` first."""
    v = np.zeros(8, dtype=np.float32)
    v[: len(values)] = values
    return v / np.linalg.norm(v)


def pattern(pid: str, vector: np.ndarray, successes: int = 10, failures: int = 0, **kw) -> PatternState:
    return PatternState(
        id=pid,
        name=pid,
        description=kw.pop("description", pid),
        pattern_type="technique",
        centroid=vector,
        tally=Tally(success=successes, failure=failures),
        cohesion=0.9,
        **kw,
    )
