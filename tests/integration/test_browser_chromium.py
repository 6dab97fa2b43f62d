"""The shipped Browser queries in a real headless Chromium (issue 24, item 4), where Debian's
chromium is installed (.ci/run installs it): scripts/browser_check.py logs in to the Neo4j
Browser the test Neo4j serves, sets ``:param mind`` and runs the rumination-evidence query; the
result frame shows the run, its findings and their memories. For a mind without a rumination
the same query shows no records (the check can fail)."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

from .helpers import DEMO

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture
def browser_check():
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium; .ci/run does)")
    if importlib.util.find_spec("websockets") is None:
        pytest.skip("the websockets package is not installed (the test extra has it)")
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import browser_check

        yield browser_check
    finally:
        sys.path.remove(str(ROOT / "scripts"))


@pytest.fixture
def browser_target(neo4j_env):
    http = os.environ.get("GRAPHMIND_TEST_NEO4J_HTTP")
    if http is None and (os.environ.get("GRAPHMIND_TEST_NEO4J_URI") or os.environ.get("NEO4J_URI")):
        pytest.skip("set GRAPHMIND_TEST_NEO4J_HTTP to the Browser's address of the external Neo4j")
    http = http or f"http://127.0.0.1:{os.environ.get('GRAPHMIND_TEST_HTTP_PORT', '17474')}"
    return http, neo4j_env["NEO4J_URI"], neo4j_env["NEO4J_PASSWORD"]


def test_the_rumination_evidence_query_runs_in_the_neo4j_browser(browser_check, browser_target, mind, other_mind):
    mind.import_jsonl(DEMO)
    result = mind.ruminate("Hey Felix, the race condition is back.", sender="Nicolas")
    query = browser_check.query_text("rumination_evidence")
    shown = browser_check.run_query(*browser_target, query, mind.name)
    cited = {i for step in result.steps for i in step.found_ids}
    assert shown.records is not None and shown.records > len(cited) > 0, shown.status
    assert shown.screenshot.startswith(b"\x89PNG")
    other_mind.import_jsonl(DEMO)  # the same memories, never ruminated on
    empty = browser_check.run_query(*browser_target, query, other_mind.name)
    assert empty.records == 0, empty.status
