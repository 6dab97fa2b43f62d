"""The Wander spec's 21 endpoints, under ``/api/v1/minds/{mind}/wander/`` (the spec's project is
our mind): sessions (create, get, list with paging, patch, delete), control (step, wander,
pause, resume, stop), inspection (loci, locus, trace, resonances, crystals), cross-session
(crystals, resonances, search) and intervention (inject, fence, crystallize). A run of more than
``SYNC_STEPS`` steps is a job (202 and its ``Location``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any, Literal

from fastapi import APIRouter, Depends, Query
from fastapi.responses import JSONResponse
from pydantic import Field

from graphmind.errors import NotFoundError
from graphmind.mind import Mind
from graphmind.server.fields import RequestBody
from graphmind.server.jobs import Jobs
from graphmind.server.keys import Scope

SYNC_STEPS = 20
"""Runs of up to this many steps answer at once; longer ones run as a job."""
INT64 = 2**53
"""The largest integers the API takes: exact in JSON (double precision) and within Neo4j's 64 bits."""
SEARCHABLE = {"locus": "Locus", "crystal": "Crystal", "resonance": "Resonance", "residue": "Residue"}


class _SessionSettings(RequestBody):
    """What a session's creator or a patch may set (the WanderSession model's bounds)."""

    name: str | None = None
    attractor: str | None = None
    allowed_domains: list[str] | None = None
    forbidden_domains: list[str] | None = None
    max_steps: int | None = Field(None, ge=1, le=INT64)
    cloud_budget_cents: int | None = Field(None, ge=0, le=INT64)
    temperature: float | None = Field(None, ge=0, le=5)


class SessionCreate(_SessionSettings):
    seed_concept: str = Field(min_length=1)
    rng_seed: int | None = Field(None, ge=-INT64, le=INT64)


class SessionPatch(_SessionSettings):
    status: Literal["paused", "active", "completed", "abandoned"] | None = None


MAX_RUN_STEPS = 10_000
"""The most steps one run may ask for (REST and MCP)."""


class WanderRun(RequestBody):
    n_steps: int = Field(10, ge=1, le=MAX_RUN_STEPS)


class Inject(RequestBody):
    concept: str = Field(min_length=1)
    force_visit: bool = True


class Fence(RequestBody):
    concept: str = Field(min_length=1)
    action: Literal["include", "exclude"]


class Search(RequestBody):
    query: str = Field(min_length=1)
    types: list[Literal["locus", "crystal", "resonance", "residue"]] = ["locus", "crystal", "resonance"]
    limit: int = Field(10, ge=1, le=100)


def wander_router(allowed: Callable[[Scope], Callable[..., Mind]], jobs: Jobs) -> APIRouter:
    """The wander endpoints; ``allowed(scope)`` is the app's key check for ``{mind}``."""
    router = APIRouter(prefix="/api/v1/minds/{mind}/wander", tags=["wander"])
    reader, writer = Depends(allowed("read")), Depends(allowed("write"))

    @router.post("/sessions", status_code=201)
    def create(body: SessionCreate, mind: Mind = writer) -> dict[str, Any]:
        config = body.model_dump(exclude_none=True)
        return mind.wander(config.pop("seed_concept"), **config).status()

    @router.get("/sessions")
    def list_sessions(
        status: str | None = None,
        limit: int = Query(20, ge=1, le=500),
        offset: int = Query(0, ge=0),
        mind: Mind = reader,
    ) -> dict[str, Any]:
        return mind.wander_sessions.page(status, limit=limit, offset=offset).as_dict()

    @router.get("/sessions/{session_id}")
    def get(session_id: str, mind: Mind = reader) -> dict[str, Any]:
        return mind.wander_sessions.show(session_id)

    @router.patch("/sessions/{session_id}")
    def patch(session_id: str, body: SessionPatch, mind: Mind = writer) -> dict[str, Any]:
        changes = body.model_dump(exclude_none=True)
        status = changes.pop("status", None)
        sessions = mind.wander_sessions
        if changes:
            sessions.update(session_id, **changes)
        if status is not None:
            sessions.set_status(session_id, status)
        return sessions.show(session_id)

    @router.delete("/sessions/{session_id}")
    def delete(session_id: str, mind: Mind = writer) -> dict[str, Any]:
        return {"session_id": session_id, "deleted": mind.wander_sessions.delete(session_id)}

    @router.post("/sessions/{session_id}/step")
    def step(session_id: str, mind: Mind = writer) -> dict[str, Any]:
        result = mind.wander(session_id=session_id).step()
        return {"step": result.as_dict() if result is not None else None}

    @router.post("/sessions/{session_id}/wander")
    def run(session_id: str, body: WanderRun | None = None, mind: Mind = writer) -> Any:
        n_steps = body.n_steps if body is not None else 10
        handle = mind.wander(session_id=session_id)
        if n_steps <= SYNC_STEPS:
            return handle.run(n_steps).as_dict()

        def run_steps(progress: Callable[[str], None]) -> dict[str, Any]:
            progress(f"{n_steps} steps")  # a cancel before the run starts stops it here
            # and one after any step stops the run there, the steps taken kept
            return handle.run(n_steps, on_step=lambda r: progress(f"step {r.step_number} ({n_steps} asked)")).as_dict()

        job_id = jobs.submit(mind.name, "wander", run_steps)
        return JSONResponse(
            {"job": job_id, "status": "queued"}, status_code=202, headers={"Location": f"/api/v1/jobs/{job_id}"}
        )

    @router.post("/sessions/{session_id}/pause")
    def pause(session_id: str, mind: Mind = writer) -> dict[str, Any]:
        return mind.wander(session_id=session_id).pause().model_dump(mode="json", exclude_none=True)

    @router.post("/sessions/{session_id}/resume")
    def resume(session_id: str, mind: Mind = writer) -> dict[str, Any]:
        return mind.wander(session_id=session_id).resume().model_dump(mode="json", exclude_none=True)

    @router.post("/sessions/{session_id}/stop")
    def stop(session_id: str, mind: Mind = writer) -> dict[str, Any]:
        return mind.wander(session_id=session_id).stop().model_dump(mode="json", exclude_none=True)

    @router.get("/sessions/{session_id}/loci")
    def loci(
        session_id: str, limit: int = Query(50, ge=1, le=500), offset: int = Query(0, ge=0), mind: Mind = reader
    ) -> dict[str, Any]:
        return mind.wander_sessions.loci(session_id, limit=limit, offset=offset).as_dict()

    @router.get("/sessions/{session_id}/loci/{locus_id}")
    def locus(session_id: str, locus_id: str, mind: Mind = reader) -> dict[str, Any]:
        mind.wander_sessions.get(session_id)
        rows = mind.store.read("wander/get_locus", mind=mind.name, id=locus_id)
        if not rows:
            raise NotFoundError(f"mind {mind.name!r} has no locus {locus_id!r}")
        return {"id": rows[0]["id"], **rows[0]["props"], "refers_to": rows[0]["refers_to"]}

    @router.get("/sessions/{session_id}/trace")
    def trace(session_id: str, mind: Mind = reader) -> dict[str, Any]:
        return {"session_id": session_id, "steps": mind.wander(session_id=session_id).trace()}

    @router.get("/sessions/{session_id}/resonances")
    def session_resonances(session_id: str, mind: Mind = reader) -> dict[str, Any]:
        mind.wander_sessions.get(session_id)
        return {
            "session_id": session_id,
            "resonances": [r for r in _resonances(mind) if r.get("session_id") == session_id],
        }

    @router.get("/sessions/{session_id}/crystals")
    def session_crystals(
        session_id: str,
        limit: int = Query(50, ge=1, le=500),
        offset: int = Query(0, ge=0, le=2**31),
        mind: Mind = reader,
    ) -> dict[str, Any]:
        return mind.wander_sessions.crystal_page(session_id, limit=limit, offset=offset).as_dict()

    @router.get("/crystals")
    def crystals(
        status: str | None = None,
        min_confidence: float = Query(0.0, ge=0, le=1),
        limit: int = Query(50, ge=1, le=500),
        offset: int = Query(0, ge=0, le=2**31),
        mind: Mind = reader,
    ) -> dict[str, Any]:
        page = mind.wander_sessions.crystal_page(
            None, status=status, min_confidence=min_confidence, limit=limit, offset=offset
        )
        return {k: v for k, v in page.as_dict().items() if k != "session_id"}

    @router.get("/resonances")
    def resonances(status: str | None = None, mind: Mind = reader) -> dict[str, Any]:
        return {"resonances": [r for r in _resonances(mind) if status is None or r.get("status") == status]}

    @router.post("/search")
    def search(body: Search, mind: Mind = reader) -> dict[str, Any]:
        labels = sorted({SEARCHABLE[t] for t in body.types})
        return mind.recall(body.query, k=body.limit, labels=labels).as_dict()

    @router.post("/sessions/{session_id}/inject")
    def inject(session_id: str, body: Inject, mind: Mind = writer) -> dict[str, Any]:
        locus_id = mind.wander(session_id=session_id).inject(body.concept, force_visit=body.force_visit)
        return {"session_id": session_id, "locus_id": locus_id}

    @router.post("/sessions/{session_id}/fence")
    def fence(session_id: str, body: Fence, mind: Mind = writer) -> dict[str, Any]:
        return (
            mind.wander(session_id=session_id)
            .fence(body.concept, body.action)
            .model_dump(mode="json", exclude_none=True)
        )

    @router.post("/sessions/{session_id}/crystallize")
    def crystallize(session_id: str, mind: Mind = writer) -> dict[str, Any]:
        result = asdict(mind.wander(session_id=session_id).crystallize())
        return {**result, "evidence": list(result["evidence"])}

    return router


def _resonances(mind: Mind) -> list[dict[str, Any]]:
    """The mind's live resonances, without their theme vectors."""
    live, _ = mind.resonances().live(datetime.now(UTC))
    return [{k: v for k, v in r.items() if k not in ("vector", "theme_vector")} for r in live]
