"""The REST API's request bodies, fuzzed (issue 25, item 4): every JSON body a route takes,
mutated (fields dropped, replaced by any JSON, unknown fields added), any JSON at all, bytes
that are not JSON, JSON Lines for the import, hostile mind names and session ids in the path.
Every answer is a 2xx or a 4xx problem with one sentence, never a 5xx; a refused request writes
nothing, and no other mind is touched. Through FastAPI's TestClient on the real Neo4j.

The two job routes (dream, wander run) are fuzzed in test_fuzz_jobs.py, which follows each job
a body starts to its end before the next case."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.reliability.fuzz_inputs import (
    Counter,
    budget,
    dumps,
    hostile_text,
    import_lines,
    json_values,
    mind_names,
    nested_mutated,
)

pytestmark = pytest.mark.integration

SESSION = "{session}"
URL_TEXT = 1_000
"""Path segments are cut to this many characters (httpx refuses URLs over 64 kB itself)."""
ROUTES: dict[tuple[str, str], dict[str, Any]] = {
    ("POST", "recall"): {"query": "race condition", "k": 3, "label": "Conversation_Memory"},
    ("POST", "knowledge"): {"query": "retry budgets", "k": 2},
    ("POST", "capture"): {
        "experience": {
            "description": "retried the settlement batch",
            "outcome": "success",
            "kind": "move",
            "importance": 0.5,
            "timestamp": "2026-01-01T00:00:00Z",
        },
        "session_id": "s1",
    },
    ("POST", "ruminate"): {"text": "why do settlements duplicate?", "sender": "Nicolas"},
    ("POST", "digest/absorb"): {"entry_id": "conv-race-1"},
    ("POST", "wander/search"): {"query": "race", "types": ["locus", "crystal"], "limit": 3},
    ("POST", "wander/sessions"): {"seed_concept": "race condition", "name": "n", "max_steps": 3, "temperature": 0.5},
    ("PATCH", f"wander/sessions/{SESSION}"): {"status": "paused", "name": "renamed"},
    ("POST", f"wander/sessions/{SESSION}/inject"): {"concept": "idempotency", "force_visit": False},
    ("POST", f"wander/sessions/{SESSION}/fence"): {"concept": "billing", "action": "exclude"},
}


def requests_for(session: str) -> st.SearchStrategy[tuple[str, str, bytes, str]]:
    """(method, path under the mind, body, content type) for every route."""
    ids = st.one_of(st.just(session), hostile_text(40).map(lambda s: s[:URL_TEXT]))
    json_routes = st.sampled_from(sorted(ROUTES)).flatmap(
        lambda route: st.tuples(
            st.just(route[0]),
            ids.map(lambda sid: route[1].replace(SESSION, quote(sid, safe="") or "x")),
            st.one_of(
                _bodies(ROUTES[route]).map(lambda b: dumps(b).encode("utf-8")),
                json_values().map(lambda v: dumps(v).encode("utf-8")),
                st.binary(max_size=60),
                hostile_text().map(lambda t: t.encode("utf-8")),
            ),
            st.just("application/json"),
        )
    )
    ndjson = st.lists(import_lines(), min_size=1, max_size=5).map(
        lambda lines: b"".join((x if isinstance(x, bytes) else x.encode("utf-8")) + b"\n" for x in lines)
    )
    import_route = st.tuples(st.just("POST"), st.just("import?job=false"), ndjson, st.just("application/x-ndjson"))
    return st.one_of(json_routes, json_routes, import_route)


def _bodies(template: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    nested = next((k for k, v in template.items() if isinstance(v, dict)), None)
    return nested_mutated(template, nested) if nested else nested_mutated({**template, "_": {}}, "_")


def answer_problems(status: int, body: Any) -> list[str]:
    """What is wrong with an answer: a 5xx, or an error that is not a one-sentence problem."""
    problems = []
    if status >= 500:
        problems.append(f"status {status}")
    if status >= 400:
        detail = body.get("detail") if isinstance(body, dict) else None
        if not isinstance(detail, str) or not detail or "\n" in detail or len(detail) > 2_000:
            problems.append(f"not a one-sentence problem: {str(body)[:200]}")
        if "Traceback" in str(body):
            problems.append("a traceback")
    return problems


def test_answer_problems_can_fail() -> None:
    assert answer_problems(422, {"detail": "query: String should have at least 1 character"}) == []
    assert answer_problems(200, {"hits": []}) == []
    assert answer_problems(500, {"detail": "internal"}) != []
    assert answer_problems(400, {"detail": "two\nlines"}) != []
    assert answer_problems(422, {"detail": [{"loc": ["body"], "msg": "x"}]}) != []
    assert answer_problems(400, "Traceback (most recent call last)") != []


def _json(response: Any) -> Any:
    try:
        return response.json()
    except ValueError:
        return response.text


def test_fuzzed_bodies_get_a_2xx_or_a_4xx_problem_and_a_refusal_writes_nothing(
    store, mind, bystander, rest_session, record_property
) -> None:
    from tests.integration.helpers import graph_snapshot

    api, auth, session = rest_session.api, rest_session.auth, rest_session.session
    others = graph_snapshot(bystander)
    minds_before = {r["mind"] for r in store.read("admin/count_minds")}
    count = Counter()

    @budget(90, shrink=False)
    @given(request=requests_for(session))
    def check(request: tuple[str, str, bytes, str]) -> None:
        count()
        method, path, body, content_type = request
        before = graph_snapshot(mind)
        response = api.request(
            method, f"/api/v1/minds/{mind.name}/{path}", content=body, headers={**auth, "Content-Type": content_type}
        )
        assert answer_problems(response.status_code, _json(response)) == [], (method, path, body[:200])
        if 400 <= response.status_code < 500:
            assert graph_snapshot(mind) == before, f"a refused {method} {path} wrote to the mind"

    check()

    @budget(30, shrink=False)
    @given(
        name=mind_names().map(lambda s: s[:URL_TEXT]), route=st.sampled_from(["stats", "recall", "capture", "export"])
    )
    def other_minds(name: str, route: str) -> None:
        count()
        path = f"/api/v1/minds/{quote(name, safe='') or 'x'}/{route}"
        if route in ("stats", "export"):
            response = api.get(path, headers=auth)
        else:
            response = api.post(path, headers=auth, content=dumps(ROUTES[("POST", route)]).encode("utf-8"))
        assert response.status_code in (401, 403, 404, 405, 422) or name == mind.name, (name[:40], response.text)
        assert answer_problems(response.status_code, _json(response)) == []

    other_minds()
    assert graph_snapshot(bystander) == others, "a fuzzed request touched another mind"
    assert {r["mind"] for r in store.read("admin/count_minds")} == minds_before, "a fuzzed request made a mind"
    record_property("fuzz_cases", count.cases)
