"""A small human-style Sudoku solver that logs each technique it applies as an Experience.

It generates demo data for the dreaming pipeline: ``python -m graphmind.demo.sudoku OUT.jsonl``
writes one session (every bundled puzzle) in graphmind's import format (JSON Lines).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

PUZZLES: dict[str, str] = {
    # Project Euler 96, grids 01-03 (grid 01 is also the easy example in Norvig's essay)
    "easy-1": "003020600900305001001806400008102900700000008006708200002609500800203009005010300",
    "medium-1": "200080300060070084030500209000105408000000000402706000301007040720040060004010003",
    "medium-2": "000000907000420180000705026100904000050000040000507009920108000034059000507000000",
    # hard-1 opens top95, the hard set in Norvig's essay; hard-2 and hard-3 are recalled
    # hard grids. The tests check that every puzzle has exactly one solution.
    "hard-1": "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "hard-2": ".524.........7.1..............8.2...3.....6...9.5.....1.6.3...........897........",
    "hard-3": "300200000000107000706030500070009080900020004010800050009040301000702000000008006",
}
"""Bundled puzzles, name -> 81 characters ('0' or '.' for a blank)."""

DIGITS = frozenset(range(1, 10))
ROWS = [[r * 9 + c for c in range(9)] for r in range(9)]
COLS = [[r * 9 + c for r in range(9)] for c in range(9)]
BOXES = [[(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)] for b in range(9)]
PEERS = [
    sorted({p for unit in (ROWS[i // 9], COLS[i % 9], BOXES[i // 27 * 3 + i % 9 // 3]) for p in unit} - {i})
    for i in range(81)
]

# technique -> (kind, outcome, confidence, impact, noun used in the insight)
TECHNIQUES: dict[str, tuple[str, str, float, str, str]] = {
    "Naked Single": ("move", "success", 1.0, "low", "naked single"),
    "Hidden Single": ("move", "success", 1.0, "low", "hidden single"),
    "Pointing Pair": ("strategy", "progress", 0.9, "medium", "pointing pair"),
    "Pointing Triple": ("strategy", "progress", 0.9, "medium", "pointing triple"),
    "Box/Line Reduction": ("strategy", "progress", 0.9, "medium", "box/line reduction"),
    "Guess": ("strategy", "progress", 0.5, "medium", "guess"),
    "Backtrack on Contradiction": ("error", "failure", 0.8, "medium", "backtrack"),
}
SINGLES = ("Naked Single", "Hidden Single")
DEFAULT_START = datetime(2026, 1, 4, 21, 0, 0, tzinfo=UTC)
SECONDS_PER_STEP = 5


@dataclass(frozen=True)
class Step:
    """One technique applied: what it placed (cell, digit) or eliminated, told as a sentence."""

    technique: str
    description: str
    cell: int | None = None
    digit: int | None = None
    eliminated: tuple[int, ...] = ()


@dataclass(frozen=True)
class SolveLog:
    """A solved puzzle: its name, the 81-digit solution and every step taken, in order."""

    puzzle: str
    solution: str
    steps: list[Step]

    def counts(self) -> Counter[str]:
        return Counter(step.technique for step in self.steps)


@dataclass
class _State:
    values: list[int]
    cands: list[set[int]]

    def copy(self) -> _State:
        return _State(list(self.values), [set(c) for c in self.cands])


def rc(cell: int) -> str:
    """'R3C5' for a 0-based cell index."""
    return f"R{cell // 9 + 1}C{cell % 9 + 1}"


def _box(cell: int) -> int:
    return cell // 27 * 3 + cell % 9 // 3


def _digits(values: Iterable[int]) -> str:
    return ",".join(str(d) for d in sorted(values))


def _cells(cells: Iterable[int]) -> str:
    return ", ".join(rc(c) for c in sorted(cells))


def parse(grid: str) -> list[int]:
    """81 givens as ints (0 for a blank); '.' and '0' are blanks."""
    text = grid.strip().replace(".", "0")
    if len(text) != 81 or not text.isdigit():
        raise ValueError("a grid is 81 characters of digits, with '0' or '.' for blanks")
    return [int(ch) for ch in text]


def _place(state: _State, cell: int, digit: int) -> None:
    state.values[cell] = digit
    state.cands[cell] = set()
    for peer in PEERS[cell]:
        state.cands[peer].discard(digit)


def _initial(grid: str) -> _State:
    state = _State([0] * 81, [set(DIGITS) for _ in range(81)])
    for cell, digit in enumerate(parse(grid)):
        if digit:
            if digit not in state.cands[cell]:
                raise ValueError(f"given {digit} at {rc(cell)} repeats a digit in its row, column or box")
            _place(state, cell, digit)
    return state


def _unit_name(kind: str, index: int) -> str:
    return f"{kind} {index + 1}"


def _units() -> Iterable[tuple[str, list[int]]]:
    for kind, units in (("box", BOXES), ("row", ROWS), ("column", COLS)):
        for index, unit in enumerate(units):
            yield _unit_name(kind, index), unit


def _contradiction(state: _State) -> str | None:
    """Why the candidate grid cannot be completed, or None."""
    for cell in range(81):
        if not state.values[cell] and not state.cands[cell]:
            return f"{rc(cell)} has zero candidates"
    for name, unit in _units():
        placed = {state.values[c] for c in unit}
        for digit in sorted(DIGITS - placed):
            if not any(digit in state.cands[c] for c in unit):
                return f"digit {digit} has no place in {name}"
    return None


def _naked_single(name: str, state: _State) -> Step | None:
    for cell in range(81):
        if state.values[cell] or len(state.cands[cell]) != 1:
            continue
        digit = next(iter(state.cands[cell]))
        seen: set[int] = set()
        parts = []
        for label, unit in (("row", ROWS[cell // 9]), ("column", COLS[cell % 9]), ("box", BOXES[_box(cell)])):
            new = {state.values[c] for c in unit} - seen - {0}
            seen |= new
            if new:
                parts.append(f"{label} has {_digits(new)}")
        rest = DIGITS - seen - {digit}
        if rest:
            parts.append(f"{_digits(rest)} eliminated earlier")
        _place(state, cell, digit)
        text = f"Puzzle {name}, {rc(cell)}: only {digit} possible ({'; '.join(parts)}), placed {digit}"
        return Step("Naked Single", text, cell, digit)
    return None


def _hidden_single(name: str, state: _State) -> Step | None:
    for unit_name, unit in _units():
        placed = {state.values[c] for c in unit}
        for digit in sorted(DIGITS - placed):
            spots = [c for c in unit if digit in state.cands[c]]
            if len(spots) == 1:
                _place(state, spots[0], digit)
                text = f"Puzzle {name}: digit {digit} has only one position in {unit_name} ({rc(spots[0])}), placed it"
                return Step("Hidden Single", text, spots[0], digit)
    return None


def _eliminate(state: _State, digit: int, cells: Iterable[int]) -> tuple[int, ...]:
    hit = tuple(sorted(c for c in cells if digit in state.cands[c]))
    for cell in hit:
        state.cands[cell].discard(digit)
    return hit


def _pointing(name: str, state: _State) -> Step | None:
    for b, box in enumerate(BOXES):
        for digit in sorted(DIGITS):
            spots = [c for c in box if digit in state.cands[c]]
            if len(spots) < 2:
                continue
            for kind, key, lines in (("row", lambda c: c // 9, ROWS), ("column", lambda c: c % 9, COLS)):
                if len({key(c) for c in spots}) != 1:
                    continue
                line = key(spots[0])
                hit = _eliminate(state, digit, (c for c in lines[line] if c not in box))
                if hit:
                    technique = "Pointing Pair" if len(spots) == 2 else "Pointing Triple"
                    text = (
                        f"Puzzle {name}: digit {digit} in box {b + 1} is confined to "
                        f"{kind} {line + 1}, eliminated {digit} from {_cells(hit)}"
                    )
                    return Step(technique, text, None, digit, hit)
    return None


def _box_line(name: str, state: _State) -> Step | None:
    for kind, lines in (("row", ROWS), ("column", COLS)):
        for index, line in enumerate(lines):
            for digit in sorted(DIGITS):
                spots = [c for c in line if digit in state.cands[c]]
                if len(spots) < 2 or len({_box(c) for c in spots}) != 1:
                    continue
                b = _box(spots[0])
                hit = _eliminate(state, digit, (c for c in BOXES[b] if c not in line))
                if hit:
                    text = (
                        f"Puzzle {name}: digit {digit} in {kind} {index + 1} is confined to "
                        f"box {b + 1}, eliminated {digit} from {_cells(hit)}"
                    )
                    return Step("Box/Line Reduction", text, None, digit, hit)
    return None


TECHNIQUE_ORDER = (_naked_single, _hidden_single, _pointing, _box_line)


def _guess(name: str, state: _State) -> Step:
    cell = min((c for c in range(81) if not state.values[c]), key=lambda c: (len(state.cands[c]), c))
    digit, size = min(state.cands[cell]), len(state.cands[cell])
    text = (
        f"Puzzle {name}: no technique applies; guessed {digit} at {rc(cell)}, the cell with fewest candidates ({size})"
    )
    return Step("Guess", text, cell, digit)


def solve(name: str, grid: str) -> SolveLog:
    """Solve ``grid`` with human techniques, guessing and backtracking only when they stall."""
    state = _initial(grid)
    steps: list[Step] = []
    guesses: list[tuple[_State, int, int]] = []
    while True:
        problem = _contradiction(state)
        if problem:
            if not guesses:
                raise ValueError(f"puzzle {name} has no solution ({problem})")
            state, cell, digit = guesses.pop()
            state.cands[cell].discard(digit)
            text = (
                f"Puzzle {name}, {problem} after the guess at {rc(cell)}; "
                f"backtracked and eliminated {digit} from {rc(cell)}"
            )
            steps.append(Step("Backtrack on Contradiction", text, cell, digit, (cell,)))
            continue
        if all(state.values):
            return SolveLog(name, "".join(map(str, state.values)), steps)
        step = next((s for technique in TECHNIQUE_ORDER if (s := technique(name, state))), None)
        if step is None:
            step = _guess(name, state)
            assert step.cell is not None and step.digit is not None
            guesses.append((state.copy(), step.cell, step.digit))
            _place(state, step.cell, step.digit)
        steps.append(step)


def _noun(noun: str, count: int) -> str:
    return noun if count == 1 else noun + ("es" if noun.endswith("s") else "s")


def _insight(log: SolveLog) -> str:
    counts = log.counts()
    parts = [f"{counts[t]} {_noun(noun, counts[t])}" for t, (*_, noun) in TECHNIQUES.items() if counts[t]]
    return f"Solved puzzle {log.puzzle} in {len(log.steps)} steps: {', '.join(parts)}"


def _kept(steps: list[Step], limit: int | None) -> list[Step]:
    """At most ``limit`` steps in solve order, keeping the rarer (non-single) steps first."""
    if limit is None or len(steps) <= limit:
        return steps
    order = sorted(range(len(steps)), key=lambda i: (steps[i].technique in SINGLES, i))
    return [steps[i] for i in sorted(order[:limit])]


def _record(
    session_id: str,
    number: int,
    when: datetime,
    description: str,
    kind: str,
    outcome: str,
    strategy: str | None,
    confidence: float,
    impact: str,
) -> dict[str, Any]:
    return {
        "type": "node",
        "label": "Experience",
        "id": f"{session_id}-e{number:04d}",
        "properties": {
            "description": description,
            "outcome": outcome,
            "kind": kind,
            "strategy_used": strategy,
            "session_id": session_id,
            "timestamp": when.isoformat(),
            "confidence": confidence,
            "impact": impact,
        },
    }


def session_experiences(
    session_id: str = "sudoku-2026-01-04",
    puzzles: Sequence[str] | None = None,
    start: datetime | None = None,
    limit_per_puzzle: int | None = None,
) -> list[dict[str, Any]]:
    """Experience nodes (import-format dicts) for solving ``puzzles`` (default: all) in order.

    Each step is one experience, then one insight per puzzle; ``limit_per_puzzle`` caps the
    steps logged per puzzle, dropping singles first. Timestamps advance a few seconds a step.
    """
    when = start or DEFAULT_START
    records: list[dict[str, Any]] = []
    for name in puzzles if puzzles is not None else list(PUZZLES):
        log = solve(name, PUZZLES[name])
        for step in _kept(log.steps, limit_per_puzzle):
            kind, outcome, confidence, impact, _ = TECHNIQUES[step.technique]
            records.append(
                _record(
                    session_id,
                    len(records) + 1,
                    when,
                    step.description,
                    kind,
                    outcome,
                    step.technique,
                    confidence,
                    impact,
                )
            )
            when += timedelta(seconds=SECONDS_PER_STEP)
        records.append(
            _record(session_id, len(records) + 1, when, _insight(log), "insight", "success", None, 1.0, "high")
        )
        when += timedelta(seconds=SECONDS_PER_STEP)
    return records


def write_jsonl(path: str | Path, records: Iterable[dict[str, Any]]) -> None:
    """Write ``records`` as JSON Lines, one object a line."""
    with Path(path).open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")


def summary(records: Sequence[dict[str, Any]]) -> str:
    """One line: how many experiences per technique (insights counted as 'Insight')."""
    counts = Counter(r["properties"]["strategy_used"] or "Insight" for r in records)
    return f"{len(records)} experiences: " + ", ".join(f"{k} {v}" for k, v in counts.items())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write a Sudoku-solving session as Experience JSONL.")
    parser.add_argument("out", type=Path, help="the .jsonl file to write")
    parser.add_argument("--session", default="sudoku-2026-01-04", help="session id")
    parser.add_argument(
        "--limit-per-puzzle", type=int, default=None, help="cap the steps logged per puzzle (singles are dropped first)"
    )
    args = parser.parse_args(argv)
    records = session_experiences(args.session, limit_per_puzzle=args.limit_per_puzzle)
    write_jsonl(args.out, records)
    print(f"{args.out}: {summary(records)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
