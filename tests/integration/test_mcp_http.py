"""graphmind's MCP server over streamable HTTP (issue 24): the SDK's own client session, behind
the REST API's bearer keys. No key or a bad one: 401; another mind's key: 404; a read key reads
and is refused the tools that write; a write key does both."""

from __future__ import annotations

import json
import socket
import threading
import time

import anyio
import httpx
import pytest
import uvicorn
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from graphmind.server.keys import create_key
from graphmind.server.mcp_http import KeyGate, bearer
from graphmind.server.mcp_server import build_server

from .helpers import DEMO
from .test_mcp import TOOLS

pytestmark = pytest.mark.integration


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served(mind):
    """The mind's MCP server on a loopback port, as ``graphmind mcp --http`` runs it."""
    mind.import_jsonl(DEMO)
    port = _free_port()
    app = KeyGate(build_server(mind).streamable_http_app(host="127.0.0.1"), mind.store, mind.name)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    yield f"http://127.0.0.1:{port}/mcp"
    server.should_exit = True
    thread.join(timeout=10)


def _session_calls(url: str, key: str, calls: list[tuple[str, dict]], resources: tuple[str, ...] = ()) -> dict:
    async def work() -> dict:
        seen: dict = {}
        client = create_mcp_http_client(headers={"Authorization": f"Bearer {key}"})
        async with (
            client,
            streamable_http_client(url, http_client=client) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            seen["tools"] = {t.name: t for t in (await session.list_tools()).tools}
            for name, args in calls:
                seen[name] = await session.call_tool(name, args)
            for uri in resources:
                seen[uri] = (await session.read_resource(uri)).contents[0].text
        return seen

    return anyio.run(work)


def _json(result) -> dict:
    """A tool's typed result: the structured content the SDK sends beside the text."""
    assert not result.is_error, result.content
    assert result.structured_content is not None, "the tool sent no structured result"
    return result.structured_content


def test_the_gate_answers_401_without_or_with_a_bad_key_and_404_for_another_minds_key(served, store, other_mind):
    other_key = create_key(store, other_mind.name, "admin")[1]
    probe = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}
    assert httpx.post(served, json=probe).status_code == 401
    bad = httpx.post(served, json=probe, headers={"Authorization": "Bearer gm_nope_nope"})
    assert bad.status_code == 401 and bad.headers["www-authenticate"] == "Bearer"
    other = httpx.post(served, json=probe, headers={"Authorization": f"Bearer {other_key}"})
    assert other.status_code == 404 and other_mind.name not in other.text


def test_a_write_key_lists_every_tool_and_calls_recall_capture_and_wander_step(served, store, mind):
    key = create_key(store, mind.name, "write")[1]
    session = _json(
        _session_calls(served, key, [("wander_create_session", {"seed_concept": "race condition"})])[
            "wander_create_session"
        ]
    )
    seen = _session_calls(
        served,
        key,
        [
            ("recall", {"query": "race condition", "k": 3}),
            ("capture", {"description": "Pinned the worker count to two", "outcome": "success"}),
            ("wander_step", {"session_id": session["session_id"]}),
        ],
    )
    assert "ctx" not in json.dumps(seen["tools"]["capture"].input_schema)  # the context is not an argument
    assert TOOLS <= set(seen["tools"])  # every tool the issue names, over HTTP as over stdio
    recall_schema = seen["tools"]["recall"].output_schema
    hit_schema = recall_schema["$defs"]["RecallHitOut"]
    assert {"hits", "query", "mind"} <= set(recall_schema["required"])  # typed, not any object
    assert {"id", "label", "score", "text", "why"} <= set(hit_schema["required"])
    step_schema = seen["tools"]["wander_step"].output_schema
    assert {"step_number", "to_locus", "strategy"} <= set(step_schema["$defs"]["StepOut"]["required"])
    recalled = _json(seen["recall"])
    hits = recalled["hits"]
    direct = mind.recall("race condition", k=3).as_dict()  # the typed result keeps every key of Mind.recall's
    assert set(recalled) == set(direct) and set(hits[0]) == set(direct["hits"][0])
    assert hits and all(h["id"] and h["label"] and h["why"] and "properties" in h for h in hits)
    assert _json(seen["capture"])["id"]
    step = _json(seen["wander_step"])["step"]
    assert step is not None and step["step_number"] == 1 and step["to_locus"] and "returned" in step


def test_a_read_key_reads_but_the_tools_that_write_refuse_it(served, store, mind):
    key = create_key(store, mind.name, "read")[1]
    before = mind.stats().labels.get("Experience", 0)
    seen = _session_calls(
        served,
        key,
        [
            ("recall", {"query": "race condition", "k": 2}),
            ("capture", {"description": "Should not be written", "outcome": "success"}),
        ],
    )
    assert _json(seen["recall"])["hits"]
    refused = seen["capture"]
    assert refused.is_error and "needs write" in refused.content[0].text
    assert mind.stats().labels.get("Experience", 0) == before


def test_bearer_reads_only_bearer_headers():
    assert bearer("Bearer abc ") == "abc" and bearer("bearer abc") == "abc"
    assert bearer(None) is None and bearer("Basic abc") is None and bearer("Bearer   ") is None


def test_over_http_the_stats_and_the_last_context_object_are_resources(served, store, mind):
    key = create_key(store, mind.name, "write")[1]
    seen = _session_calls(
        served,
        key,
        [("ruminate", {"text": "The race condition in the worker pool is back", "sender": "nicolas"})],
        resources=("graphmind://mind/stats", "graphmind://mind/context/last"),
    )
    context = _json(seen["ruminate"])["context_markdown"]
    assert context.strip() and seen["graphmind://mind/context/last"] == context
    stats = json.loads(seen["graphmind://mind/stats"])
    assert stats["mind"] == mind.name and stats["nodes"] == mind.stats().nodes
