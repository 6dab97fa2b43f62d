"""The import format, fuzzed (issue 25, item 4): any line is a node, an edge or a conversation,
or it is refused with one sentence that names its line; a whole fuzzed file through
``graphmind import`` exits 0 or 2 with one sentence, writes all or nothing, and leaves every
other mind as it was."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from graphmind.errors import ValidationError
from graphmind.io.jsonl import parse_line
from tests.reliability.fuzz_inputs import DEMO, Counter, budget, import_lines

LIMIT = 1_000_000


def refusal_problems(number: int, exc: ValidationError) -> list[str]:
    """What is wrong with the refusal of line ``number``: it must name the line, in one line of text."""
    text = str(exc)
    problems = []
    if exc.line != number or f"line {number}" not in text:
        problems.append(f"does not name line {number}: {text[:120]!r}")
    if "\n" in text or "\r" in text:
        problems.append(f"is not one line: {text[:120]!r}")
    if len(text) > 1_000:
        problems.append(f"is {len(text)} characters long")
    return problems


def test_refusal_problems_can_fail() -> None:
    assert refusal_problems(3, ValidationError("line 3, field 'x': bad", line=3)) == []
    assert refusal_problems(3, ValidationError("line 4: bad", line=4)) != []
    assert refusal_problems(3, ValidationError("line 3, field 'a\nb': bad", line=3)) != []
    assert refusal_problems(3, ValidationError("line 3: " + "x" * 2000, line=3)) != []


def test_any_line_is_parsed_or_refused_with_its_line_number(record_property) -> None:
    count = Counter()

    @budget(200)
    @given(line=import_lines(), number=st.integers(1, 10**6))
    @example(line="9" * 5_000, number=1)  # found by the bench profile: int() refuses 4,300+ digits
    @example(line="[" * 100_000, number=2)  # nesting past the recursion limit
    def check(line: str | bytes, number: int) -> None:
        count()
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError:
                pass  # iter_lines hands undecodable lines over as bytes
        try:
            parse_line(number, line, LIMIT)
        except ValidationError as exc:
            assert refusal_problems(number, exc) == []

    check()
    record_property("fuzz_cases", count.cases)


# -- the whole command, on the real Neo4j -----------------------------------------------------


@pytest.mark.integration
def test_a_fuzzed_file_is_imported_whole_or_refused_whole(
    mind, bystander, cli_env, capsys, tmp_path, record_property
) -> None:
    from tests.integration.helpers import graph_snapshot, run_cli

    mind.import_jsonl(DEMO)
    others = graph_snapshot(bystander)
    count = Counter()

    @budget(40, shrink=False)
    @given(lines=st.lists(import_lines(), min_size=1, max_size=6), strict=st.booleans())
    def check(lines: list[str | bytes], strict: bool) -> None:
        count()
        path = tmp_path / "fuzz.jsonl"
        path.write_bytes(
            b"".join((x if isinstance(x, bytes) else x.encode("utf-8", "surrogatepass")) + b"\n" for x in lines)
        )
        before = graph_snapshot(mind)
        code, out, err = run_cli(capsys, "import", str(path), "--mind", mind.name, *(["--strict"] if strict else []))
        assert code in (0, 2), (code, err)
        assert "Traceback" not in err and "internal error" not in err, err
        if code == 2:
            assert err.count("\n") == 1 and out == "", err
            assert graph_snapshot(mind) == before, "a refused import wrote something"

    check()
    assert graph_snapshot(bystander) == others, "a fuzzed import touched another mind"
    record_property("fuzz_cases", count.cases)
