"""The REST API (issue 24, first slice): keys made once and kept as hashes; 401 / 404 / 403 as
the issue says; recall, knowledge, stats, export and capture of one mind; errors as one
sentence; the OpenAPI contract. Through FastAPI's TestClient against the real Neo4j."""

from __future__ import annotations

import http
import json

import pytest
from fastapi.testclient import TestClient

from graphmind.server.app import create_app
from graphmind.server.keys import create_key, digest

from .helpers import DEMO, run_cli

pytestmark = pytest.mark.integration


@pytest.fixture
def api(store, settings):
    with TestClient(create_app(settings, store)) as client:
        yield client


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_calls_answer_401_without_a_valid_key_404_for_another_mind_and_403_above_the_scope(
    api, store, mind, other_mind
):
    mind.import_jsonl(DEMO)
    _, reader = create_key(store, mind.name, "read")
    _, theirs = create_key(store, other_mind.name, "admin")
    path = f"/api/v1/minds/{mind.name}/stats"
    assert api.get(path).status_code == 401
    assert api.get(path, headers=bearer("gm_deadbeef_not-a-key")).status_code == 401
    assert api.get(path, headers={"Authorization": reader}).status_code == 401  # not a bearer
    missing = api.get(path, headers=bearer(theirs))
    assert missing.status_code == 404 and mind.name in missing.json()["detail"]
    assert api.get("/api/v1/minds/no-such-mind/stats", headers=bearer(theirs)).status_code == 404
    refused = api.post(
        f"/api/v1/minds/{mind.name}/capture",
        headers=bearer(reader),
        json={"experience": {"description": "x", "outcome": "success"}},
    )
    assert refused.status_code == 403 and "needs write" in refused.json()["detail"]
    ok = api.get(path, headers=bearer(reader))
    assert ok.status_code == 200 and ok.json()["nodes"] == mind.stats().nodes
    empty = f"/api/v1/minds/{other_mind.name}"  # a key of its own, but nothing in it yet: reads say so
    unknown = api.get(f"{empty}/stats", headers=bearer(theirs))
    assert unknown.status_code == 404 and "does not exist" in unknown.json()["detail"]
    made = api.post(
        f"{empty}/capture", headers=bearer(theirs), json={"experience": {"description": "x y", "outcome": "success"}}
    )
    assert made.status_code == 200 and api.get(f"{empty}/stats", headers=bearer(theirs)).status_code == 200


def test_read_verbs_of_one_mind(api, store, mind):
    mind.import_jsonl(DEMO)
    _, key = create_key(store, mind.name, "read")
    hits = api.post(
        f"/api/v1/minds/{mind.name}/recall", headers=bearer(key), json={"query": "race condition", "k": 3}
    ).json()["hits"]
    assert len(hits) == 3 and {"id", "label", "score", "why"} <= hits[0].keys()
    only = api.post(
        f"/api/v1/minds/{mind.name}/recall",
        headers=bearer(key),
        json={"query": "race condition", "label": "Failed_Attempt"},
    ).json()["hits"]
    assert only and {h["label"] for h in only} == {"Failed_Attempt"}
    exported = api.get(f"/api/v1/minds/{mind.name}/export", headers=bearer(key))
    lines = [json.loads(line) for line in exported.text.splitlines()]
    assert exported.headers["content-type"].startswith("application/x-ndjson")
    assert sorted(lines, key=json.dumps) == sorted((json.loads(x) for x in mind.export_jsonl()), key=json.dumps)
    assert api.post(
        f"/api/v1/minds/{mind.name}/knowledge", headers=bearer(key), json={"query": "race condition"}
    ).json() == {"matches": []}  # nothing dreamed yet
    for verb in ("recall", "knowledge"):  # a number sent as text is refused, not coerced
        coerced = api.post(f"/api/v1/minds/{mind.name}/{verb}", headers=bearer(key), json={"query": "race", "k": "3"})
        assert coerced.status_code == 422 and coerced.json()["errors"][0]["path"] == "body.k"


def test_ask_answers_from_the_memories_and_cites_them(api, store, mind):
    mind.import_jsonl(DEMO)
    _, key = create_key(store, mind.name, "read")
    path = f"/api/v1/minds/{mind.name}/ask"
    asked = api.post(path, headers=bearer(key), json={"question": "Why did the race condition come back?"})
    body = asked.json()
    assert asked.status_code == 200 and body["found"] and body["cited_ids"]
    assert set(body["cited_ids"]) <= {json.loads(x)["id"] for x in mind.export_jsonl() if "label" in json.loads(x)}
    assert body["tool_calls"][0]["tool"] == "recall_memories" and body["llm"]["provider"] == "offline"
    assert body == mind.ask("Why did the race condition come back?").output.model_dump(mode="json") | {
        k: body[k] for k in ("question", "tool_calls", "llm")
    }
    assert api.post(path, headers=bearer(key), json={"question": ""}).status_code == 422
    blank = api.post(path, headers=bearer(key), json={"question": "   "})
    assert blank.status_code in (400, 422) and "the question is empty" in blank.json()["detail"], blank.json()


def test_capture_writes_and_bad_input_is_one_sentence(api, store, mind):
    _, key = create_key(store, mind.name, "write")
    done = api.post(
        f"/api/v1/minds/{mind.name}/capture",
        headers=bearer(key),
        json={
            "experience": {"description": "Proofed the dough for 12 hours", "outcome": "success"},
            "session_id": "bake-1",
        },
    )
    assert done.status_code == 200
    assert mind.get(done.json()["id"]).description == "Proofed the dough for 12 hours"
    bad = api.post(
        f"/api/v1/minds/{mind.name}/capture", headers=bearer(key), json={"experience": {"description": "no outcome"}}
    )
    assert bad.status_code == 422 and [e["path"] for e in bad.json()["errors"]] == ["body.experience.outcome"]
    unknown = api.post(
        f"/api/v1/minds/{mind.name}/recall", headers=bearer(key), json={"query": "dough", "label": "NoSuchLabel"}
    )
    assert unknown.status_code == 422 and unknown.json()["errors"][0]["path"] == "body.label"
    cut = api.post(
        f"/api/v1/minds/{mind.name}/capture",
        headers={**bearer(key), "content-type": "application/json"},
        content=b'{"experience": {"description": "cut short',
    )
    detail = cut.json()["detail"]
    assert cut.status_code == 422 and detail.startswith("the request body is not valid JSON (at character"), detail
    assert mind.stats().labels == {"Experience": 1}  # the refused captures wrote nothing


def test_a_capture_never_overwrites_a_memory_under_its_id_and_a_retry_writes_nothing(api, store, mind):
    mind.import_jsonl(DEMO)
    _, key = create_key(store, mind.name, "write")
    path = f"/api/v1/minds/{mind.name}/capture"
    taken = next(json.loads(x)["id"] for x in mind.export_jsonl() if json.loads(x).get("label") == "Failed_Attempt")
    before = mind.get(taken).model_dump()
    clash = api.post(
        path, headers=bearer(key), json={"experience": {"id": taken, "description": "x y", "outcome": "success"}}
    )
    assert clash.status_code == 409 and taken in clash.json()["detail"]
    assert mind.get(taken).model_dump() == before  # the failed attempt is as it was
    experience = {"id": "bake-7", "description": "Proofed the dough for 12 hours", "outcome": "success"}
    first = api.post(path, headers=bearer(key), json={"experience": experience, "session_id": "bake-1"})
    stamp = mind.get("bake-7").timestamp
    again = api.post(path, headers=bearer(key), json={"experience": experience, "session_id": "bake-1"})
    assert first.status_code == again.status_code == 200 and first.json() == {"id": "bake-7", "created": True}
    assert again.json() == {"id": "bake-7", "created": False}
    assert mind.get("bake-7").timestamp == stamp  # the retry wrote nothing
    other = api.post(path, headers=bearer(key), json={"experience": {**experience, "outcome": "failure"}})
    assert other.status_code == 409 and mind.get("bake-7").outcome == "success"


def test_the_openapi_contract_lists_the_verbs(api):
    paths = api.get("/openapi.json").json()["paths"]
    for verb in ("recall", "knowledge", "ask", "stats", "export", "capture"):
        assert f"/api/v1/minds/{{mind}}/{verb}" in paths


def test_cli_keys_are_shown_once_stored_as_hashes_listed_and_revoked(api, store, cli_env, cli_mind, capsys):
    code, out, _ = run_cli(capsys, "keys", "create", "--mind", cli_mind, "--scope", "write", "--json")
    assert code == 0
    made = json.loads(out)
    assert made["key"].startswith("gm_") and made["scope"] == "write"
    stored = store.read("keys/get_key", hash=digest(made["key"]))
    assert stored and stored[0]["id"] == made["id"]
    raw = store.read("keys/list_keys", mind=cli_mind)
    assert made["key"] not in json.dumps(raw)  # the key itself is never stored
    code, out, _ = run_cli(capsys, "keys", "list", "--mind", cli_mind, "--json")
    assert [k["id"] for k in json.loads(out)["keys"]] == [made["id"]]
    assert api.get(f"/api/v1/minds/{cli_mind}/stats", headers=bearer(made["key"])).status_code == 404  # empty yet
    assert run_cli(capsys, "capture", "first memory", "--mind", cli_mind, "--outcome", "success")[0] == 0
    assert api.get(f"/api/v1/minds/{cli_mind}/stats", headers=bearer(made["key"])).status_code == 200
    code, _, _ = run_cli(capsys, "keys", "revoke", made["id"], "--mind", cli_mind)
    assert code == 0
    assert api.get(f"/api/v1/minds/{cli_mind}/stats", headers=bearer(made["key"])).status_code == 401
    code, _, err = run_cli(capsys, "keys", "revoke", made["id"], "--mind", cli_mind)
    assert code == 2 and "no key" in err
    code, _, err = run_cli(capsys, "keys", "create", "--mind", cli_mind, "--scope", "root")
    assert code == 2


def test_a_minds_keys_go_with_it(store, settings, mind):
    from graphmind.server.keys import find_key

    mind.import_jsonl(DEMO)
    _, key = create_key(store, mind.name, "admin")
    assert find_key(store, key) is not None
    mind.delete()
    assert find_key(store, key) is None  # a mind made again under the name starts keyless


def test_graphmind_serve_answers_over_http(cli_env, store, mind):
    import os
    import socket
    import subprocess
    import sys
    import time

    import httpx

    mind.import_jsonl(DEMO)
    _, key = create_key(store, mind.name, "read")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "graphmind.cli", "serve", "--port", str(port)],
        env={**os.environ, **cli_env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        answer = None
        for _ in range(300):  # until it listens (or gives up after a few hundred tries)
            try:
                answer = httpx.get(
                    f"http://127.0.0.1:{port}/api/v1/minds/{mind.name}/stats", headers=bearer(key), timeout=5
                )
                break
            except httpx.TransportError:
                assert server.poll() is None, server.stderr.read().decode()
                time.sleep(0.1)
        assert answer is not None and answer.status_code == 200
        assert answer.json()["nodes"] == mind.stats().nodes
    finally:
        server.terminate()
        server.wait(timeout=30)


def _finished(api, location: str, key: str) -> dict:
    import time

    for _ in range(600):  # until the job ends (a dream of a few experiences takes seconds)
        job = api.get(location, headers=bearer(key)).json()
        if job["status"] not in ("queued", "running"):
            return job
        time.sleep(0.1)
    raise AssertionError(f"job still {job['status']}")


def test_dream_is_a_job_with_a_location_status_and_result(api, store, mind):
    from tests.integration.helpers import experiences

    mind.capture_many(experiences())
    _, writer = create_key(store, mind.name, "write")
    _, reader = create_key(store, mind.name, "read")
    url = f"/api/v1/minds/{mind.name}/dream"
    assert api.post(url, headers=bearer(writer), json={"max_experiences": 0}).status_code == 422
    unknown = api.post(url, headers=bearer(writer), json={"session": "nosuch"})
    assert unknown.status_code == 404 and "session 'nosuch'" in unknown.json()["detail"]  # no job, no run record
    assert not store.read("dream/list_runs", mind=mind.name)
    started = api.post(url, headers=bearer(writer), json={"max_level": 2, "max_experiences": 18})
    assert started.status_code == 202
    location = started.headers["location"]
    assert location == f"/api/v1/jobs/{started.json()['job']}"
    job = _finished(api, location, reader)
    assert job["status"] == "completed" and job["result"]["patterns"] == 3 and job["result"]["remaining"] == 0
    assert {entry["level"] for entry in job["result"]["ladder"]} == {2}
    assert api.post(f"/api/v1/minds/{mind.name}/dream", headers=bearer(reader)).status_code == 403
    _, stranger = create_key(store, "test-someone-else", "admin")
    assert api.get(location, headers=bearer(stranger)).status_code == 404
    assert api.get("/api/v1/jobs/job-nope", headers=bearer(reader)).status_code == 404


def test_a_job_can_be_cancelled_and_one_a_stopped_server_left_reads_interrupted(store, settings, mind):
    import threading

    from graphmind.server.jobs import Jobs

    jobs, release = Jobs(store), threading.Event()

    def slow(progress):
        release.wait(30)
        progress("phase two")  # the cancel takes effect here
        return {"never": True}

    try:
        job_id = jobs.submit(mind.name, "dream", slow)
        jobs.cancel(job_id)
        release.set()
        for _ in range(300):
            if jobs.get(job_id)["status"] not in ("queued", "running"):
                break
            threading.Event().wait(0.05)
        assert jobs.get(job_id)["status"] == "cancelled"
        store.write(
            "keys/upsert_job",
            id="job-left-running",
            mind=mind.name,
            kind="dream",
            status="running",
            progress="compress",
            result=None,
            error=None,
        )
    finally:
        jobs.close()
    _, key = create_key(store, mind.name, "read")
    with TestClient(create_app(settings, store)) as restarted:  # a new server start
        assert restarted.get("/api/v1/jobs/job-left-running", headers=bearer(key)).json()["status"] == "interrupted"


def test_ruminate_digest_verify_and_import_through_the_api(api, store, mind):
    _, key = create_key(store, mind.name, "write")
    base = f"/api/v1/minds/{mind.name}"
    imported = api.post(
        f"{base}/import", headers={**bearer(key), "Content-Type": "application/x-ndjson"}, content=DEMO.read_bytes()
    )
    assert imported.status_code == 200 and imported.json()["nodes"] == 28
    bad = api.post(
        f"{base}/import",
        headers={**bearer(key), "Content-Type": "application/x-ndjson"},
        content=b'{"type": "node", "label": "Nope", "id": "x", "properties": {}}\n',
    )
    assert bad.status_code == 400 and "line 1" in bad.json()["detail"]
    context = api.post(
        f"{base}/ruminate",
        headers=bearer(key),
        json={"text": "Hey Felix, the race condition is back.", "sender": "Nicolas"},
    ).json()
    assert len(context["sections"]) == 7 and context["context_markdown"]
    digest = api.get(f"{base}/digest", headers=bearer(key), params={"rng_seed": 1}).json()
    assert {"cross_pollination", "convergence", "forgotten"} <= digest.keys()
    entry = next(iter(digest["cross_pollination"]["topics"].values()))[0]["id"]
    assert api.post(f"{base}/digest/absorb", headers=bearer(key), json={"entry_id": entry}).json()["absorbed"] == entry
    assert api.post(f"{base}/verify", headers=bearer(key)).json()["status"] == "empty"  # no ladder yet


def test_errors_are_rfc9457_problems_and_a_bad_body_names_its_fields(api, store, mind):
    _, key = create_key(store, mind.name, "write")
    mind.capture({"description": "a first memory", "outcome": "success"}, wait=True)  # reads need a mind
    answer = api.post(f"/api/v1/minds/{mind.name}/recall", headers=bearer(key), json={"query": "", "k": 0})
    assert answer.status_code == 422 and answer.headers["content-type"].startswith("application/problem+json")
    problem = answer.json()
    assert problem["status"] == 422 and problem["title"] == http.HTTPStatus(422).phrase
    assert {e["path"] for e in problem["errors"]} == {"body.query", "body.k"}
    unauthorised = api.get(f"/api/v1/minds/{mind.name}/stats")
    assert unauthorised.headers["www-authenticate"] == "Bearer"
    assert unauthorised.json()["type"] == "about:blank" and unauthorised.json()["status"] == 401
    huge = api.post(f"/api/v1/minds/{mind.name}/recall", headers=bearer(key), json={"query": "x" * 200_000, "k": 5000})
    assert huge.status_code == 422 and len(huge.content) < 10_000  # bounded, whatever was sent
    for answer, status in ((api.get("/api/v1/nosuch"), 404), (api.get(f"/api/v1/minds/{mind.name}/recall"), 405)):
        assert answer.status_code == status and answer.headers["content-type"].startswith("application/problem+json")
        assert answer.json()["status"] == status and answer.json()["title"] == http.HTTPStatus(status).phrase
    assert "POST" in api.get(f"/api/v1/minds/{mind.name}/recall").headers["allow"]  # 405 keeps its Allow
    big = {"experience": {"description": "é" * 500_001, "outcome": "success"}}
    before = mind.stats().nodes
    refused = api.post(f"/api/v1/minds/{mind.name}/capture", headers=bearer(key), json=big)
    assert refused.status_code == 400 and "GRAPHMIND_MAX_PROPERTY_BYTES" in refused.json()["detail"]
    assert mind.stats().nodes == before


def test_a_wander_session_from_creation_to_deletion_over_rest(api, store, mind, other_mind):
    mind.import_jsonl(DEMO)
    _, key = create_key(store, mind.name, "write")
    _, theirs = create_key(store, other_mind.name, "admin")
    base, auth = f"/api/v1/minds/{mind.name}/wander", bearer(key)
    made = api.post(
        f"{base}/sessions",
        headers=auth,
        json={"seed_concept": "race conditions in async code", "name": "races", "rng_seed": 3},
    )
    assert made.status_code == 201
    sid = made.json()["session_id"]
    assert api.get(f"{base}/sessions/{sid}", headers=bearer(theirs)).status_code == 404  # cross-mind
    assert api.get(f"/api/v1/minds/{other_mind.name}/wander/sessions/{sid}", headers=bearer(theirs)).status_code == 404
    assert api.get(f"{base}/sessions/{sid}", headers=auth).json()["name"] == "races"
    assert [s["id"] for s in api.get(f"{base}/sessions", headers=auth).json()["sessions"]] == [sid]
    step = api.post(f"{base}/sessions/{sid}/step", headers=auth).json()["step"]
    assert step["step_number"] == 1
    ran = api.post(f"{base}/sessions/{sid}/wander", headers=auth, json={"n_steps": 4}).json()
    assert ran["steps_completed"] == 4
    loci = api.get(f"{base}/sessions/{sid}/loci", headers=auth).json()
    assert loci["total"] >= 1
    first = loci["loci"][0]["id"]
    assert api.get(f"{base}/sessions/{sid}/loci/{first}", headers=auth).json()["id"] == first
    assert len(api.get(f"{base}/sessions/{sid}/trace", headers=auth).json()["steps"]) == 5
    assert "resonances" in api.get(f"{base}/sessions/{sid}/resonances", headers=auth).json()
    assert (
        api.post(f"{base}/sessions/{sid}/inject", headers=auth, json={"concept": "idempotency keys"}).status_code == 200
    )
    fenced = api.post(f"{base}/sessions/{sid}/fence", headers=auth, json={"concept": "emotions", "action": "exclude"})
    assert fenced.json()["fence_excluded"] == ["emotions"]
    assert "formed" in api.post(f"{base}/sessions/{sid}/crystallize", headers=auth).json()
    session_page = api.get(f"{base}/sessions/{sid}/crystals", headers=auth, params={"limit": 1}).json()
    assert len(session_page["crystals"]) <= 1 and session_page["total"] >= len(session_page["crystals"])
    every = api.get(f"{base}/crystals", headers=auth, params={"min_confidence": 0.5}).json()
    assert all(c["confidence"] >= 0.5 for c in every["crystals"]) and every["total"] == len(every["crystals"])
    assert api.get(f"{base}/crystals", headers=auth, params={"limit": 0}).status_code == 422
    assert "resonances" in api.get(f"{base}/resonances", headers=auth).json()
    found = api.post(f"{base}/search", headers=auth, json={"query": "race condition", "types": ["locus"]}).json()
    assert found["hits"] and {h["label"] for h in found["hits"]} == {"Locus"}
    assert api.post(f"{base}/sessions/{sid}/pause", headers=auth).json()["status"] == "paused"
    assert (
        api.patch(f"{base}/sessions/{sid}", headers=auth, json={"name": "async races"}).json()["name"] == "async races"
    )
    assert api.post(f"{base}/sessions/{sid}/resume", headers=auth).json()["status"] == "active"
    job = api.post(f"{base}/sessions/{sid}/wander", headers=auth, json={"n_steps": 25})
    assert job.status_code == 202
    done = _finished(api, job.headers["location"], key)
    assert done["status"] == "completed" and done["result"]["steps_completed"] >= 1
    assert api.post(f"{base}/sessions/{sid}/stop", headers=auth).json()["status"] in ("completed", "paused")
    gone = api.delete(f"{base}/sessions/{sid}", headers=auth)
    assert gone.status_code == 200
    assert api.get(f"{base}/sessions/{sid}", headers=auth).status_code == 404
    assert mind.stats().labels["Conversation_Memory"] == 4  # memories untouched


def test_a_large_import_is_a_job_whose_result_is_the_import_report(api, store, mind, monkeypatch):
    from graphmind.server import app as server_app

    _, key = create_key(store, mind.name, "write")
    base = f"/api/v1/minds/{mind.name}"
    headers = {**bearer(key), "Content-Type": "application/x-ndjson"}
    body = DEMO.read_bytes()
    monkeypatch.setattr(server_app, "IMPORT_JOB_LINES", body.count(b"\n") - 1)  # this body is now "large"
    started = api.post(f"{base}/import", headers=headers, content=body)
    assert started.status_code == 202 and started.headers["location"] == f"/api/v1/jobs/{started.json()['job']}"
    job = _finished(api, started.headers["location"], key)
    assert job["status"] == "completed" and job["result"]["nodes"] == 28 and job["result"]["edges"] == 23
    assert mind.stats().nodes == 28
    waited = api.post(f"{base}/import", headers=headers, params={"job": "false"}, content=body)
    assert waited.status_code == 200 and waited.json()["nodes"] == 28  # job=false waits, whatever the size
    bad = b'{"type": "node", "label": "Nope", "id": "x", "properties": {}}\n'
    failed = _finished(
        api, api.post(f"{base}/import", headers=headers, params={"job": "true"}, content=bad).headers["location"], key
    )
    assert failed["status"] == "failed" and "line 1" in failed["error"] and mind.stats().nodes == 28


def test_cancelling_a_wander_job_stops_the_run_after_the_step_in_progress(api, store, mind):
    """A long wander run is a job; its cancel takes effect at the next step, not after all of them."""
    import time

    mind.import_jsonl(DEMO)
    _, key = create_key(store, mind.name, "write")
    base, auth = f"/api/v1/minds/{mind.name}/wander", bearer(key)
    sid = api.post(f"{base}/sessions", headers=auth, json={"seed_concept": "race conditions", "rng_seed": 5}).json()[
        "session_id"
    ]
    asked = 5_000
    job = api.post(f"{base}/sessions/{sid}/wander", headers=auth, json={"n_steps": asked})
    assert job.status_code == 202
    location = job.headers["location"]
    for _ in range(600):  # until the first step is committed
        if (api.get(location, headers=auth).json().get("progress") or "").startswith("step "):
            break
        time.sleep(0.1)
    assert api.delete(location, headers=auth).status_code == 202
    done = _finished(api, location, key)
    assert done["status"] == "cancelled", done
    steps = api.get(f"{base}/sessions/{sid}", headers=auth).json()["steps_completed"]
    assert 1 <= steps < asked
    time.sleep(1.0)  # nothing runs on behind the cancelled job
    assert api.get(f"{base}/sessions/{sid}", headers=auth).json()["steps_completed"] == steps
