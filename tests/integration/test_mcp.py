"""graphmind as an MCP server (issue 24): a real MCP client session (the SDK's ClientSession)
over stdio lists every tool, and recall, capture, the wander tools, dream and job_status answer
with structured results; the stats resource reads."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from .helpers import DEMO

pytestmark = pytest.mark.integration
TOOLS = {
    "wander_create_session",
    "wander_step",
    "wander_run",
    "wander_get_insights",
    "wander_inject",
    "recall",
    "ruminate",
    "capture",
    "knowledge",
    "digest",
    "verify",
    "dream",
    "job_status",
    "job_cancel",
}


def _structured(result) -> dict:
    assert not result.is_error, result.content
    if result.structured_content is not None:
        return result.structured_content
    return json.loads(result.content[0].text)


def _ended(job: dict) -> bool:
    return job["status"] not in ("queued", "running")


async def _job(session: ClientSession, job_id: str, until: Callable[[dict], bool]) -> dict:
    """The job's status once ``until`` holds for it (polled for up to a minute)."""
    for _ in range(600):
        job = _structured(await session.call_tool("job_status", {"job_id": job_id}))
        if until(job):
            return job
        await anyio.sleep(0.1)
    raise AssertionError(f"job {job_id} is still {job['status']} ({job['progress']})")


def test_an_mcp_client_over_stdio_lists_the_tools_and_calls_them(cli_env, mind):
    mind.import_jsonl(DEMO)
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "graphmind.cli", "mcp", "--mind", mind.name], env={**os.environ, **cli_env}
    )

    async def session_work() -> dict:
        seen: dict = {}
        async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.list_tools()
            seen["tools"] = {tool.name: tool for tool in listed.tools}
            seen["recall"] = _structured(await session.call_tool("recall", {"query": "race condition", "k": 3}))
            seen["capture"] = _structured(
                await session.call_tool(
                    "capture", {"description": "Rolled the croissant dough at 4 C", "outcome": "success"}
                )
            )
            made = _structured(
                await session.call_tool("wander_create_session", {"seed_concept": "race conditions in async code"})
            )
            seen["step"] = _structured(await session.call_tool("wander_step", {"session_id": made["session_id"]}))
            seen["run"] = _structured(
                await session.call_tool("wander_run", {"session_id": made["session_id"], "n_steps": 3})
            )
            seen["insights"] = _structured(
                await session.call_tool(
                    "wander_get_insights", {"session_id": made["session_id"], "min_confidence": 0.0}
                )
            )
            long_run = _structured(
                await session.call_tool("wander_run", {"session_id": made["session_id"], "n_steps": 5_000})
            )
            seen["long_run"] = long_run
            await _job(session, long_run["job"], lambda job: (job["progress"] or "").startswith("step "))
            await session.call_tool("job_cancel", {"job_id": long_run["job"]})
            seen["long_run_job"] = await _job(session, long_run["job"], _ended)
            seen["too_many"] = await session.call_tool(
                "wander_run", {"session_id": made["session_id"], "n_steps": 10_001}
            )
            seen["no_session"] = await session.call_tool("dream", {"session": "nosuch"})
            seen["no_job"] = await session.call_tool("job_status", {"job_id": "nosuch"})
            seen["bad_k"] = await session.call_tool("recall", {"query": "race condition", "k": 0})
            seen["bad_outcome"] = await session.call_tool("capture", {"description": "x y", "outcome": "great"})
            started = _structured(await session.call_tool("dream", {}))
            seen["job"] = await _job(session, started["job"], _ended)
            stats = await session.read_resource("graphmind://mind/stats")
            seen["stats"] = json.loads(stats.contents[0].text)
        return seen

    seen = anyio.run(session_work)
    assert TOOLS <= seen["tools"].keys()
    assert all(seen["tools"][name].description and seen["tools"][name].input_schema for name in TOOLS)
    assert "query" in seen["tools"]["recall"].input_schema["properties"]
    assert len(seen["recall"]["hits"]) == 3
    assert mind.get(seen["capture"]["id"]).description == "Rolled the croissant dough at 4 C"
    assert seen["step"]["step"]["step_number"] == 1
    assert seen["run"]["steps_completed"] == 3
    assert {"crystals", "session"} <= seen["insights"].keys()
    assert seen["long_run"]["status"] == "queued"  # more than SYNC_STEPS: a job
    assert seen["long_run_job"]["status"] == "cancelled", seen["long_run_job"]
    assert seen["too_many"].is_error and "10000" in seen["too_many"].content[0].text
    assert seen["no_session"].is_error and "session 'nosuch'" in seen["no_session"].content[0].text
    # graphmind's own sentence, not the SDK's bare "Error executing tool"
    assert seen["no_job"].is_error and "nosuch" in seen["no_job"].content[0].text
    assert seen["bad_k"].is_error and "k must be a whole number" in seen["bad_k"].content[0].text
    assert seen["bad_outcome"].is_error and "outcome" in seen["bad_outcome"].content[0].text
    assert seen["job"]["status"] == "completed"
    assert seen["stats"]["mind"] == mind.name and seen["stats"]["nodes"] > 28
