import json
import re
from datetime import UTC, datetime

import pytest

from graphmind.demo.sudoku import (
    BOXES,
    COLS,
    PUZZLES,
    ROWS,
    TECHNIQUES,
    main,
    parse,
    session_experiences,
    solve,
    write_jsonl,
)
from graphmind.io.jsonl import NodeLine, parse_line
from graphmind.models import Experience

NS, HS, PP, PT, BL = "Naked Single", "Hidden Single", "Pointing Pair", "Pointing Triple", "Box/Line Reduction"
GUESS, BACK = "Guess", "Backtrack on Contradiction"

NEEDS = {
    "easy-1": {NS},
    "medium-1": {NS, HS},
    "medium-2": {NS, HS},
    "hard-1": {NS, HS, PP, PT},
    "hard-2": {NS, HS, PP, BL, GUESS},
    "hard-3": {NS, HS, PP, GUESS, BACK},
}

TEMPLATES = {
    NS: r"Puzzle [\w-]+, R\dC\d: only (\d) possible \((row|column|box|\d).*\), placed \1",
    HS: r"Puzzle [\w-]+: digit \d has only one position in (row|column|box) \d \(R\dC\d\), placed it",
    PP: r"Puzzle [\w-]+: digit (\d) in box \d is confined to (row|column) \d, "
    r"eliminated \1 from R\dC\d(, R\dC\d)*",
    BL: r"Puzzle [\w-]+: digit (\d) in (row|column) \d is confined to box \d, "
    r"eliminated \1 from R\dC\d(, R\dC\d)*",
    GUESS: r"Puzzle [\w-]+: no technique applies; guessed \d at R\dC\d, "
    r"the cell with fewest candidates \(\d\)",
    BACK: r"Puzzle [\w-]+, (R\dC\d has zero candidates|digit \d has no place in (row|column|box) \d) "
    r"after the guess at (R\dC\d); backtracked and eliminated \d from \3",
}
TEMPLATES[PT] = TEMPLATES[PP]


def count_solutions(grid: str, limit: int = 2) -> int:
    """Plain backtracking (fewest-options cell first), stopping at ``limit`` solutions."""
    rows, cols, boxes, empty = [0] * 9, [0] * 9, [0] * 9, []
    for i, d in enumerate(parse(grid)):
        r, c, b = i // 9, i % 9, i // 27 * 3 + i % 9 // 3
        if not d:
            empty.append((r, c, b))
        elif (rows[r] | cols[c] | boxes[b]) & (1 << d):
            return 0
        else:
            rows[r] |= 1 << d
            cols[c] |= 1 << d
            boxes[b] |= 1 << d
    found = 0

    def search(todo: list) -> None:
        nonlocal found
        if not todo:
            found += 1
            return
        k = min(
            range(len(todo)),
            key=lambda j: (~(rows[todo[j][0]] | cols[todo[j][1]] | boxes[todo[j][2]]) & 0x3FE).bit_count(),
        )
        r, c, b = todo[k]
        free = ~(rows[r] | cols[c] | boxes[b]) & 0x3FE
        while free and found < limit:
            bit = free & -free
            free ^= bit
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
            search(todo[:k] + todo[k + 1 :])
            rows[r] ^= bit
            cols[c] ^= bit
            boxes[b] ^= bit

    search(empty)
    return found


@pytest.fixture(scope="module")
def logs():
    return {name: solve(name, grid) for name, grid in PUZZLES.items()}


@pytest.fixture(scope="module")
def session():
    return session_experiences()


def test_the_counter_tells_unique_from_ambiguous_and_impossible():
    assert count_solutions("." * 81) == 2
    assert count_solutions("11" + "." * 79) == 0


@pytest.mark.parametrize("name", list(PUZZLES))
def test_each_bundled_puzzle_has_exactly_one_solution(name):
    assert count_solutions(PUZZLES[name]) == 1


@pytest.mark.parametrize("name", list(PUZZLES))
def test_the_solver_finds_a_valid_grid_that_keeps_the_givens(name, logs):
    solution = [int(ch) for ch in logs[name].solution]
    for unit in ROWS + COLS + BOXES:
        assert sorted(solution[c] for c in unit) == list(range(1, 10))
    assert all(g in (0, s) for g, s in zip(parse(PUZZLES[name]), solution))


def test_each_puzzle_uses_exactly_the_techniques_it_needs(logs):
    assert set(NEEDS) == set(PUZZLES)
    assert {name: set(log.counts()) for name, log in logs.items()} == NEEDS


@pytest.mark.parametrize("name", list(PUZZLES))
def test_steps_before_the_first_guess_agree_with_the_solution(name, logs):
    solution = [int(ch) for ch in logs[name].solution]
    for step in logs[name].steps:
        if step.technique == GUESS:
            break
        if step.technique in (NS, HS):
            assert solution[step.cell] == step.digit, step.description
        else:
            assert step.eliminated and all(solution[c] != step.digit for c in step.eliminated)


def test_a_backtrack_undoes_a_wrong_guess(logs):
    solution = [int(ch) for ch in logs["hard-3"].solution]
    backtracks = [s for s in logs["hard-3"].steps if s.technique == BACK]
    assert backtracks and all(solution[s.cell] != s.digit for s in backtracks)


def test_descriptions_follow_one_template_per_technique(logs):
    for log in logs.values():
        for step in log.steps:
            assert re.fullmatch(TEMPLATES[step.technique], step.description), step.description
            assert step.description.startswith(f"Puzzle {log.puzzle}")


def test_a_naked_single_explains_what_the_units_rule_out(logs):
    first = logs["easy-1"].steps[0]
    assert first.description == (
        "Puzzle easy-1, R5C6: only 4 possible (row has 7,8; column has 2,3,5,6,9; box has 1), placed 4"
    )


def test_every_experience_validates_as_an_import_line(session):
    for number, record in enumerate(session, start=1):
        parsed = parse_line(number, json.dumps(record), 1_000_000)
        assert isinstance(parsed, NodeLine) and parsed.label == "Experience"
        Experience.model_validate({**record["properties"], "id": record["id"]})
    assert len({r["id"] for r in session}) == len(session)


def test_experiences_carry_kind_outcome_and_confidence_per_technique(session):
    for record in session:
        props = record["properties"]
        strategy = props["strategy_used"]
        if strategy is None:
            assert (props["kind"], props["outcome"], props["impact"]) == ("insight", "success", "high")
            assert props["description"].startswith("Solved puzzle ")
        else:
            kind, outcome, confidence, impact, _ = TECHNIQUES[strategy]
            assert (props["kind"], props["outcome"], props["confidence"], props["impact"]) == (
                kind,
                outcome,
                confidence,
                impact,
            )


def test_one_insight_per_puzzle_counts_its_steps(session, logs):
    insights = [r["properties"]["description"] for r in session if r["properties"]["kind"] == "insight"]
    assert len(insights) == len(PUZZLES)
    assert insights[0].startswith(f"Solved puzzle easy-1 in {len(logs['easy-1'].steps)} steps: ")
    assert insights[-1] == (
        "Solved puzzle hard-3 in 86 steps: 65 naked singles, 16 hidden singles, "
        "1 pointing pair, 2 guesses, 2 backtracks"
    )


def test_timestamps_start_at_the_given_time_and_advance(session):
    start = datetime(2026, 3, 1, 8, 0, tzinfo=UTC)
    records = session_experiences("s1", ["easy-1"], start=start)
    stamps = [datetime.fromisoformat(r["properties"]["timestamp"]) for r in records]
    assert stamps[0] == start and all(a < b for a, b in zip(stamps, stamps[1:]))
    assert records[0]["id"] == "s1-e0001" and records[0]["properties"]["session_id"] == "s1"


def test_the_output_is_deterministic(session):
    assert json.dumps(session_experiences()) == json.dumps(session)


def test_a_limit_per_puzzle_drops_singles_first(session):
    limited = session_experiences(limit_per_puzzle=12)
    assert len(limited) == 13 * len(PUZZLES)
    rare = [r["properties"]["description"] for r in session if r["properties"]["strategy_used"] not in (NS, HS)]
    kept = [r["properties"]["description"] for r in limited]
    assert [text for text in kept if text in rare] == rare
    assert [r["id"] for r in limited] == [f"sudoku-2026-01-04-e{n:04d}" for n in range(1, len(limited) + 1)]


def test_main_writes_one_session_and_summarises(tmp_path, capsys, session):
    out = tmp_path / "sudoku.jsonl"
    assert main([str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == session
    assert f"{len(session)} experiences" in capsys.readouterr().err


def test_write_jsonl_writes_one_object_a_line(tmp_path):
    out = tmp_path / "x.jsonl"
    write_jsonl(out, [{"a": 1}, {"b": "é"}])
    assert out.read_text(encoding="utf-8") == '{"a": 1}\n{"b": "é"}\n'


def test_a_grid_with_clashing_givens_is_refused():
    with pytest.raises(ValueError, match="repeats"):
        solve("bad", "11" + "0" * 79)
