"""graphmind as an MCP server for agents (``graphmind mcp --mind M``: stdio, or streamable HTTP
with ``--http`` behind the REST API's keys, see ``mcp_http``), on the official SDK.

The tools are the Wander spec's five (``wander_create_session``, ``wander_step``,
``wander_run``, ``wander_get_insights``, ``wander_inject``) and the engine verbs: ``recall``,
``ruminate``, ``capture``, ``knowledge``, ``digest``, ``verify``, ``dream`` (which returns a job
id), ``job_status`` and ``job_cancel``; a ``wander_run`` of more than ``SYNC_STEPS`` steps is a
job too. Each returns structured JSON. The mind's stats and the last Context
Object this server produced are resources. One server serves one mind.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, cast

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from graphmind.digest import DigestParams
from graphmind.dream import DreamParams
from graphmind.errors import InputError
from graphmind.mind import Mind
from graphmind.server.jobs import Jobs
from graphmind.server.keys import SCOPES
from graphmind.server.mcp_http import scope_of
from graphmind.server.mcp_types import JobOut, JobStarted, RecallOut, WanderStepOut
from graphmind.server.wander_routes import MAX_RUN_STEPS, SYNC_STEPS

log = logging.getLogger(__name__)


def build_server(mind: Mind) -> MCPServer:
    """The MCP server for ``mind`` (the caller keeps the mind open while it serves)."""
    server = MCPServer(
        name="graphmind",
        instructions=(
            f"Long-term memory of the mind {mind.name!r}: recall what it holds, ruminate on a message "
            "to get a grounded context, capture what happens, and explore idea space with wander."
        ),
    )
    jobs = Jobs(mind.store, workers=1)
    last: dict[str, Any] = {}
    server.tool = _saying(server.tool)  # type: ignore[method-assign]

    def may_write(ctx: Context) -> None:
        """Over HTTP, the tools that write need a write key (stdio: the local user may)."""
        scope = scope_of(mind.store, ctx.headers)
        if scope is not None and SCOPES.index(scope) < SCOPES.index("write"):
            raise ToolError(f"this key may {scope}, and this tool needs write")

    @server.tool(
        description="Find the memories that best match a question or topic (vector and full-text "
        "search, fused; facts still valid first). Returns hits with id, label, text, score and why "
        "each matched. as_of (ISO-8601 date) sees what held then."
    )
    def recall(query: str, k: int = 10, label: str | None = None, as_of: str | None = None) -> RecallOut:
        return cast(RecallOut, mind.recall(query, k=k, labels=[label] if label else None, as_of=as_of).as_dict())

    @server.tool(
        description="Think about an incoming message before answering it: explores the memory "
        "graph and returns a grounded 7-section Context Object (markdown and sections)."
    )
    def ruminate(text: str, ctx: Context, sender: str | None = None) -> dict[str, Any]:
        may_write(ctx)
        result = mind.ruminate(text, sender=sender).as_dict()
        last["context"] = result["context_markdown"]
        return result

    @server.tool(
        description="Record one experience as it happens (description and outcome: success, "
        "failure or progress; optionally kind, strategy_used, confidence; supersedes: ids of older "
        "memories it replaces, marked invalid, never deleted). Returns its id."
    )
    def capture(
        description: str,
        outcome: str,
        ctx: Context,
        kind: str | None = None,
        strategy_used: str | None = None,
        session_id: str | None = None,
        supersedes: list[str] | None = None,
    ) -> dict[str, Any]:
        may_write(ctx)
        experience = {
            k: v
            for k, v in {
                "description": description,
                "outcome": outcome,
                "kind": kind,
                "strategy_used": strategy_used,
            }.items()
            if v is not None
        }
        return {"id": mind.capture(experience, session_id=session_id, wait=True, supersedes=supersedes or ())}

    @server.tool(
        description="Consolidated knowledge (patterns from past dreams) about a question, "
        "with the abstraction ladder above each and examples; failures for 'does X help'; "
        "usually no match when no pattern is about it."
    )
    def knowledge(query: str, k: int = 5) -> dict[str, Any]:
        return {"matches": [m.as_dict() for m in mind.query_knowledge(query, k)]}

    @server.tool(
        description="Three digests of the mind's topic entries: random samples across topics, "
        "threads that converge, and entries never read for a week (oldest first)."
    )
    def digest(n: int = 2, rng_seed: int | None = None) -> dict[str, Any]:
        return mind.digest(DigestParams(n=n), rng_seed=rng_seed).as_dict()

    @server.tool(
        description="Check the abstraction ladder the mind holds now (five checks). Returns status "
        "verified | flagged | failed | empty, a score, and flagged parent/child edges."
    )
    def verify() -> dict[str, Any]:
        return mind.verify().as_dict()

    @server.tool(
        description="Forget memories by id: delete them with their edges and embeddings and cut "
        "copies of their text out of what was derived from them; cascade also removes what lost "
        "its support (a pattern with too few experiences, a crystal with one piece of evidence). "
        "dry_run lists it all and changes nothing. An id the mind lacks forgets nothing."
    )
    def forget(ids: list[str], ctx: Context, cascade: bool = False, dry_run: bool = False) -> dict[str, Any]:
        may_write(ctx)
        try:
            return mind.forget(ids, cascade=cascade, dry_run=dry_run).as_dict()
        except InputError as exc:  # an unknown id: the sentence, for the model to read
            raise ToolError(str(exc)) from exc

    @server.tool(
        description="Start consolidating new experiences into patterns and a ladder (the night "
        "cycle). Returns a job id immediately; poll it with job_status."
    )
    def dream(ctx: Context, session: str | None = None) -> JobStarted:
        may_write(ctx)
        params = DreamParams(session=session)
        try:
            mind.require_session(session)  # a typo is refused now, not a failed job later
        except InputError as exc:
            raise ToolError(str(exc)) from exc
        trigger = "session-complete" if session else "manual"
        job_id = jobs.submit(mind.name, "dream", lambda on: mind.dream(params, trigger=trigger, progress=on).as_dict())
        return {"job": job_id, "status": "queued"}

    @server.tool(
        description="The status (queued, running, completed, failed, cancelled, interrupted), "
        "progress and result of a job started by dream."
    )
    def job_status(job_id: str) -> JobOut:
        job = jobs.get(job_id)
        if job["mind"] != mind.name:
            raise ValueError(f"no job {job_id!r} in mind {mind.name!r}")
        return cast(JobOut, job)

    @server.tool(
        description="Ask a job started by dream or wander_run to stop: a dream stops between phases "
        "and writes nothing; a wander run stops after the step in progress, keeping the steps taken."
    )
    def job_cancel(job_id: str, ctx: Context) -> JobOut:
        may_write(ctx)
        if jobs.get(job_id)["mind"] != mind.name:
            raise ValueError(f"no job {job_id!r} in mind {mind.name!r}")
        return cast(JobOut, jobs.cancel(job_id))

    @server.tool(
        description="Start a new wander exploration session through the mind's idea space from "
        "a seed concept. Returns the session's id and state."
    )
    def wander_create_session(
        seed_concept: str,
        ctx: Context,
        name: str | None = None,
        attractor: str | None = None,
        allowed_domains: list[str] | None = None,
    ) -> dict[str, Any]:
        may_write(ctx)
        config: dict[str, Any] = {
            k: v for k, v in {"name": name, "attractor": attractor, "allowed_domains": allowed_domains}.items() if v
        }
        return mind.wander(seed_concept, **config).status()

    @server.tool(
        description="Take one exploration step in a wander session. Returns where it went and "
        "what it found, or null when the session cannot step (paused or ended)."
    )
    def wander_step(session_id: str, ctx: Context) -> WanderStepOut:
        may_write(ctx)
        result = mind.wander(session_id=session_id).step()
        return cast(WanderStepOut, {"step": result.as_dict() if result is not None else None})

    @server.tool(
        description=f"Run several wander steps (default 10, at most {MAX_RUN_STEPS}). Returns how many "
        "ran, crystals formed and why it stopped (budget, checkpoint, stall); a run of more than "
        f"{SYNC_STEPS} steps returns a job id instead: poll it with job_status, stop it with job_cancel."
    )
    def wander_run(session_id: str, ctx: Context, n_steps: int = 10) -> dict[str, Any]:
        may_write(ctx)
        if isinstance(n_steps, bool) or not 1 <= n_steps <= MAX_RUN_STEPS:
            raise ToolError(f"n_steps must be a whole number from 1 to {MAX_RUN_STEPS}, not {n_steps!r}")
        handle = mind.wander(session_id=session_id)
        if n_steps <= SYNC_STEPS:
            return handle.run(n_steps).as_dict()

        def run_steps(progress: Callable[[str], None]) -> dict[str, Any]:
            return handle.run(n_steps, on_step=lambda r: progress(f"step {r.step_number} ({n_steps} asked)")).as_dict()

        return {"job": jobs.submit(mind.name, "wander", run_steps), "status": "queued"}

    @server.tool(
        description="The insights of a wander session: its crystals at or above a confidence "
        "(default 0.7) and the session's state."
    )
    def wander_get_insights(session_id: str, min_confidence: float = 0.7) -> dict[str, Any]:
        handle = mind.wander(session_id=session_id)
        crystals = [c for c in handle.crystals() if (c.get("confidence") or 0.0) >= min_confidence]
        return {"crystals": crystals, "session": handle.status()}

    @server.tool(description="Inject a concept into a wander session: the next step visits it.")
    def wander_inject(session_id: str, concept: str, ctx: Context) -> dict[str, Any]:
        may_write(ctx)
        return {"locus": mind.wander(session_id=session_id).inject(concept)}

    @server.resource(
        "graphmind://mind/stats",
        description="The mind's node counts by label and relationship type.",
        mime_type="application/json",
    )
    def stats() -> dict[str, Any]:
        return mind.stats().as_dict()

    @server.resource(
        "graphmind://mind/context/last",
        mime_type="text/markdown",
        description="The last Context Object this server's ruminate produced.",
    )
    def last_context() -> str:
        return last.get("context", "(no rumination yet)")

    return server


def _saying(register: Callable[..., Callable[[Callable[..., Any]], Any]]) -> Callable[..., Any]:
    """``server.tool`` whose tools turn graphmind's input errors (a bad k, an unknown job or
    session, an invalid experience) into a tool error carrying the sentence, for the model to
    read, instead of the SDK's bare "Error executing tool"."""

    def tool(*args: Any, **kwargs: Any) -> Callable[[Callable[..., Any]], Any]:
        def decorate(fn: Callable[..., Any]) -> Any:
            @functools.wraps(fn)
            def said(*a: Any, **kw: Any) -> Any:
                try:
                    return fn(*a, **kw)
                except InputError as exc:
                    raise ToolError(str(exc)) from exc

            return register(*args, **kwargs)(said)

        return decorate

    return tool
