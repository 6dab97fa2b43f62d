"""The long variant of the fuzz suites (issue 25, item 4): about 10,000 generated inputs.

    python bench/fuzz_bench.py [-- extra pytest args]

Runs tests/reliability/test_fuzz_*.py under ``HYPOTHESIS_PROFILE=bench`` (twenty times the
CI profile's ~500 cases, still derandomized) with a JUnit XML report, and prints the cases
tried, survived and lost per check with bench/reliability_table.py's counting, beside the CI
profile's count as the baseline. Exit 1 when a case is lost. Uses the test Neo4j as
tests/conftest.py does (GRAPHMIND_TEST_*).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reliability_table import JUNIT, REPO, table, tally

CI_CASES = 590
"""Cases the ci profile generates over the fuzz suites (budget() shares in the test files)."""


def main() -> int:
    report = Path(tempfile.mkdtemp()) / "fuzz.xml"
    tests = sorted(str(p.relative_to(REPO)) for p in (REPO / "tests" / "reliability").glob("test_fuzz_*.py"))
    command = [
        sys.executable,
        "-m",
        "pytest",
        *tests,
        "-q",
        "-p",
        "no:cacheprovider",
        "-o",
        JUNIT,
        f"--junitxml={report}",
    ]
    start = time.perf_counter()
    subprocess.run([*command, *sys.argv[1:]], cwd=REPO, env={**os.environ, "HYPOTHESIS_PROFILE": "bench"}, check=False)
    seconds = time.perf_counter() - start
    rows = tally(report)
    print(table(rows))
    tried = sum(sum(c.values()) for c in rows.values())
    lost = sum(c["lost"] for c in rows.values())
    print(f"{tried:,} cases in {seconds:.0f} s ({tried / CI_CASES:.1f}x the ci profile's {CI_CASES}); lost {lost}")
    return 1 if lost else 0


if __name__ == "__main__":
    raise SystemExit(main())
