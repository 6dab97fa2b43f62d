"""Regenerate the reliability table of bench/RESULTS.md from the suite's own results (issue 25, item 7).

Runs ``pytest tests/reliability`` with a JUnit XML report, counts the cases of each check (a
parametrised test is one row: its cases are the faults or inputs tried) and prints a Markdown
table: cases tried, survived (passed), lost (failed or errored: it must read 0), skipped.
A fuzz test (tests/reliability/test_fuzz_*.py) counts each generated input as a case: it records
them as the JUnit property ``fuzz_cases``; ``HYPOTHESIS_PROFILE=bench`` runs twenty times as many.
With ``--write`` the table replaces the block between the ``reliability`` markers of
bench/RESULTS.md (appended the first time). Uses the test Neo4j as tests/conftest.py does.
``--long`` runs the long variants (GRAPHMIND_RELIABILITY_LONG=1): the Neo4j kill at every dream
phase and every statement of the publishing transaction, and a heavier concurrent load.

    python bench/reliability_table.py [--long] [--write] [-- extra pytest args]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "RESULTS.md"
JUNIT = "junit_family=xunit1"
"""The JUnit flavour that keeps record_property's ``fuzz_cases`` (xunit2 warns about it)."""
BEGIN, END = "<!-- reliability:begin -->", "<!-- reliability:end -->"
AREAS = {
    "test_security": "Security facts (item 5)",
    "test_llm_faults": "LLM fault matrix (item 2)",
    "test_neo4j_kill": "Neo4j SIGKILL (item 1)",
    "test_concurrency": "Concurrent load (item 3)",
    "test_fuzz": "Bad input, fuzzed (item 4)",
}


def run_suite(extra: list[str], long: bool = False) -> Path:
    report = Path(tempfile.mkdtemp()) / "reliability.xml"
    command = [sys.executable, "-m", "pytest", "tests/reliability", "-q", "-p", "no:cacheprovider", "-o", JUNIT]
    env = {**os.environ, "GRAPHMIND_RELIABILITY_LONG": "1" if long else "0"}
    subprocess.run([*command, f"--junitxml={report}", *extra], cwd=REPO, check=False, env=env)
    return report


def tally(*reports: Path) -> dict[tuple[str, str], dict[str, int]]:
    """(area, check) -> counts of passed / lost / skipped cases of tests/reliability."""
    rows: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: {"passed": 0, "lost": 0, "skipped": 0})
    cases = [case for report in reports for case in ET.parse(report).getroot().iter("testcase")]
    for case in cases:
        if not case.get("classname", "").startswith("tests.reliability."):
            continue
        module = case.get("classname", "").rsplit(".", 1)[-1]
        check = case.get("name", "").split("[", 1)[0].removeprefix("test_").replace("_", " ")
        counts = rows[(area(module), check)]
        if case.find("skipped") is not None:
            counts["skipped"] += 1
        elif case.find("failure") is not None or case.find("error") is not None:
            counts["lost"] += 1
        else:
            counts["passed"] += fuzz_cases(case)
    return rows


def area(module: str) -> str:
    """The area a test module belongs to: AREAS by module name or its prefix (test_fuzz_cli)."""
    return next((name for prefix, name in AREAS.items() if module.startswith(prefix)), module)


def fuzz_cases(case: ET.Element) -> int:
    """The cases one test tried: its ``fuzz_cases`` property (a Hypothesis test records how many
    inputs it generated), else 1."""
    for prop in case.iter("property"):
        if prop.get("name") == "fuzz_cases":
            return int(prop.get("value", "1"))
    return 1


def table(rows: dict[tuple[str, str], dict[str, int]]) -> str:
    lines = ["| Area | Check | Cases | Survived | Lost | Skipped |", "|---|---|---:|---:|---:|---:|"]
    total = {"passed": 0, "lost": 0, "skipped": 0}
    for (area, check), c in sorted(rows.items()):
        lines.append(f"| {area} | {check} | {sum(c.values())} | {c['passed']} | {c['lost']} | {c['skipped']} |")
        for key in total:
            total[key] += c[key]
    lines.append(
        f"| **All** | | **{sum(total.values())}** | **{total['passed']}** | **{total['lost']}** | {total['skipped']} |"
    )
    return "\n".join(lines)


def write(text: str) -> None:
    block = f"{BEGIN}\n{text}\n{END}"
    current = RESULTS.read_text()
    if BEGIN in current and END in current:
        head, rest = current.split(BEGIN, 1)
        current = head + block + rest.split(END, 1)[1]
    else:
        intro = "\n## Reliability\n\n`python bench/reliability_table.py --write` runs tests/reliability and writes:\n\n"
        current = current.rstrip("\n") + "\n" + intro + block + "\n"
    RESULTS.write_text(current)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="replace the table in bench/RESULTS.md")
    parser.add_argument("--long", action="store_true", help="run the long variants (every kill point, more load)")
    parser.add_argument(
        "--report", type=Path, action="append", help="read these JUnit XMLs (repeatable) instead of running the suite"
    )
    parser.add_argument("pytest_args", nargs="*")
    args = parser.parse_args()
    rows = tally(*(args.report or [run_suite(args.pytest_args, args.long)]))
    text = table(rows)
    print(text)
    if args.write:
        write(text)
    return 1 if any(c["lost"] for c in rows.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
