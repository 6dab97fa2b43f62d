"""The REST job routes' bodies, fuzzed (issue 25, item 4): ``dream`` and a wander session's
``wander`` run, with their bodies mutated, any JSON, bytes that are not JSON, and hostile session
ids. Every answer is a 2xx or a 4xx problem with one sentence, never a 5xx; a refused request
writes nothing. A body that starts a job is followed to its end, half of them cancelled at once:
the job ends completed or cancelled, or failed with one sentence, never an internal error, and
the next case starts only then. Through FastAPI's TestClient on the real Neo4j."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.reliability.fuzz_inputs import Counter, budget, dumps, hostile_text, json_values, mutated
from tests.reliability.test_fuzz_api import URL_TEXT, _json, answer_problems

pytestmark = pytest.mark.integration

SESSION = "{session}"
JOB_ROUTES: dict[str, dict[str, Any]] = {
    "dream": {"domain": "software", "max_level": 3, "strict_mode": False},
    f"wander/sessions/{SESSION}/wander": {"n_steps": 30},
}
FINAL = ("completed", "failed", "cancelled", "interrupted")


def job_requests(session: str) -> st.SearchStrategy[tuple[str, bytes, bool]]:
    """(path under the mind, body, cancel at once) for the two job routes."""
    ids = st.one_of(st.just(session), st.just(session), hostile_text(40).map(lambda s: s[:URL_TEXT]))
    return st.sampled_from(sorted(JOB_ROUTES)).flatmap(
        lambda route: st.tuples(
            ids.map(lambda sid: route.replace(SESSION, quote(sid, safe="") or "x")),
            st.one_of(
                mutated(JOB_ROUTES[route]).map(lambda b: dumps(b).encode("utf-8")),
                st.just(dumps(JOB_ROUTES[route]).encode("utf-8")),
                json_values().map(lambda v: dumps(v).encode("utf-8")),
                st.binary(max_size=40),
            ),
            st.booleans(),
        )
    )


def job_problems(job: dict[str, Any]) -> list[str]:
    """What is wrong with a finished job: not final, an internal error, or an error that is not one sentence."""
    problems = []
    if job.get("status") not in FINAL:
        problems.append(f"still {job.get('status')}")
    error = job.get("error") or ""
    if "internal error" in error or "Traceback" in error:
        problems.append(f"an internal error: {error[:200]}")
    if "\n" in error:
        problems.append("an error of more than one line")
    return problems


def test_job_problems_can_fail() -> None:
    assert job_problems({"status": "completed", "error": None}) == []
    assert job_problems({"status": "cancelled", "error": "job j was cancelled"}) == []
    assert job_problems({"status": "running"}) != []
    assert job_problems({"status": "failed", "error": "internal error (KeyError: 'x')"}) != []
    assert job_problems({"status": "failed", "error": "two\nlines"}) != []


def _finish(api: Any, location: str, auth: dict[str, str], cancel: bool) -> dict[str, Any]:
    if cancel:
        assert api.delete(location, headers=auth).status_code == 202
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job = api.get(location, headers=auth).json()
        if job["status"] in FINAL:
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {location} did not end: {job}")


def test_fuzzed_job_bodies_answer_2xx_or_a_4xx_problem_and_every_job_ends_cleanly(
    mind, bystander, rest_session, record_property
) -> None:
    from tests.integration.helpers import experiences, graph_snapshot

    api, auth = rest_session.api, rest_session.auth
    mind.capture_many(experiences())
    others = graph_snapshot(bystander)
    count, started = Counter(), Counter()

    @budget(25, shrink=False)
    @given(request=job_requests(rest_session.session))
    def check(request: tuple[str, bytes, bool]) -> None:
        count()
        path, body, cancel = request
        before = graph_snapshot(mind)
        response = api.post(
            f"/api/v1/minds/{mind.name}/{path}", content=body, headers={**auth, "Content-Type": "application/json"}
        )
        assert answer_problems(response.status_code, _json(response)) == [], (path, body[:200])
        if 400 <= response.status_code < 500:
            assert graph_snapshot(mind) == before, f"a refused POST {path} wrote to the mind"
        if response.status_code == 202:
            started()
            job = _finish(api, response.headers["location"], auth, cancel)
            assert job_problems(job) == [], (path, body[:200], job)

    check()
    assert graph_snapshot(bystander) == others, "a fuzzed job touched another mind"
    assert started.cases >= 1, "no fuzzed body started a job: the check never reached one"
    record_property("fuzz_cases", count.cases)
