"""Would a pattern that must stand out among the query's nearest patterns keep off-topic
questions from a nearby field silent? (issue 20; a negative result, not used.)

    python bench/_knowledge_standout_research.py [--data clinc,...]

For each set of ``bench/knowledge_quality.py`` (its questions, dreams and 15 nearest candidates
per question), the floor alone (graphmind's rule) beside the floor plus "at least the median
of the candidates' cosines + delta" and "at least their mean + z sd". Printed per set: relevant
kept / off-topic silent, and the mean merit (relevant kept + off-topic dropped) / 2 over the
calibration sets and the held-out ones.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import knowledge_quality as kq

QUANTILE = 97.5
MIN_CANDIDATES = 6


def rule(delta: float | None, stat: str = "median") -> Callable[[dict], list[str]]:
    def keep(row: dict) -> list[str]:
        candidates, floor = row["candidates"], row["floors"][QUANTILE]
        sims = np.array([c[1] for c in candidates])
        bar = -1.0
        if delta is not None and len(candidates) >= MIN_CANDIDATES:
            bar = float(np.median(sims) + delta) if stat == "median" else float(sims.mean() + delta * sims.std())
        return [c[0] for c in candidates if c[1] > floor and c[1] >= bar]

    return keep


def measure(rows: list[dict], keep: Callable[[dict], list[str]]) -> tuple[float, float, float]:
    kept = relevant = silent = off = dropped = off_given = 0
    for row in rows:
        nearest, chosen = row["candidates"][: kq.K], set(keep(row)[: kq.K])
        if row["label"] is None:
            off += 1
            silent += not chosen
            off_given += len(nearest)
            dropped += sum(c[0] not in chosen for c in nearest)
        else:
            relevant += sum(c[2] for c in nearest)
            kept += sum(c[2] and c[0] in chosen for c in nearest)
    return kept / max(1, relevant), silent / max(1, off), dropped / max(1, off_given)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=f"{kq.CALIBRATION},{kq.HELD_OUT}")
    names = parser.parse_args().data.split(",")
    results = {name: kq.answers(name) for name in names}
    variants = [("floor", rule(None))]
    variants += [(f"median+{d}", rule(d)) for d in (0.0, 0.03, 0.05, 0.1)]
    variants += [(f"mean+{z}sd", rule(z, "z")) for z in (0.0, 0.5, 1.0)]
    print("| rule | " + " | ".join(names) + " | merit: calibration / held out |")
    for label, keep in variants:
        cells, calibration, held_out = [], [], []
        for name in names:
            kept, silent, dropped = measure(results[name], keep)
            cells.append(f"{kept:.2f} / {silent:.2f}")
            (calibration if name in kq.CALIBRATION.split(",") else held_out).append((kept + dropped) / 2)
        merit = f"{np.mean(calibration or [0]):.3f} / {np.mean(held_out or [0]):.3f}"
        print(f"| {label} | " + " | ".join(cells) + f" | {merit} |")


if __name__ == "__main__":
    main()
