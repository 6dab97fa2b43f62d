"""The REST API: every engine verb of a mind under ``/api/v1/minds/{mind}/``.

Each call carries ``Authorization: Bearer <key>`` (``graphmind keys create``). No key or an
unknown one answers 401; a key of another mind answers 404, so whether a mind exists does not
leak; a key whose scope is too low answers 403. Errors are ``{"error": sentence}`` with the
status of their kind (400 bad input, 404 not found, 503 Neo4j unreachable, 500 a failed run)
as ``application/problem+json`` (RFC 9457: type, title, status, detail); a body that does not
fit its model answers 422 with the paths of its bad fields.
The OpenAPI contract is served at ``/openapi.json``.
"""

from __future__ import annotations

import http
import logging
import shutil
import tempfile
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from fastapi import Body, Depends, FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from graphmind.config import Settings
from graphmind.digest import DigestParams
from graphmind.dream import DreamParams
from graphmind.errors import GraphmindError
from graphmind.mind import Mind
from graphmind.models.base import NodeId
from graphmind.server.fields import RequestBody
from graphmind.server.forget_routes import forget_router
from graphmind.server.jobs import Jobs
from graphmind.server.keys import ApiKey, Scope, find_key
from graphmind.server.memory_routes import memory_router
from graphmind.server.problems import ApiError, problem, status_of
from graphmind.server.wander_routes import wander_router
from graphmind.store import GraphStore
from graphmind.store.minds import check_mind_name

log = logging.getLogger(__name__)
API = "/api/v1/minds/{mind}"
PROBLEMS: dict[int | str, dict[str, Any]] = {
    status: {
        "description": http.HTTPStatus(status).phrase,
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
    }
    for status in (400, 401, 403, 404, 422, 500, 503)
}
"""Every operation may answer these, each an RFC 9457 problem."""
MAX_FIELD_ERRORS = 20
"""A 422 lists at most this many bad fields (the answer stays small whatever was sent)."""
IMPORT_JOB_BYTES = 2 << 20
IMPORT_JOB_LINES = 10_000
"""``POST import`` runs as a job past either size: a client is not held for a long import. A
cancelled import job stops between batches; what it wrote stays, and running it again (import
is idempotent) completes it."""


class Problem(BaseModel):
    """An error (RFC 9457): ``detail`` is one sentence; a 422 adds its bad fields."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    errors: list[dict[str, str]] | None = None


class ExperienceBody(RequestBody):
    """An experience as the API takes it (the Experience model's own fields)."""

    id: str | None = Field(None, min_length=1, max_length=256, pattern=r"^[^\s\x00-\x1f]+$")
    description: str = Field(min_length=1)
    outcome: Literal["success", "failure", "progress"]
    kind: Literal["move", "strategy", "insight", "error"] = "move"
    strategy_used: str | None = None
    timestamp: datetime | None = None
    importance: float | None = Field(None, ge=0, le=1)
    confidence: float | None = Field(None, ge=0, le=1)
    impact: Literal["high", "medium", "low"] | None = None


class CaptureRequest(RequestBody):
    experience: ExperienceBody
    session_id: str | None = None
    supersedes: list[NodeId] = []  # older memories it replaces: they get invalid_at, never deleted
    contradicts: list[NodeId] = []


class RuminateRequest(RequestBody):
    text: str = Field(min_length=1)
    sender: str | None = None


class AbsorbRequest(RequestBody):
    entry_id: str = Field(min_length=1)


class DreamRequest(RequestBody):
    domain: str = ""
    session: str | None = None
    max_level: int = Field(4, ge=1, le=4)
    max_experiences: int = Field(DreamParams.model_fields["max_experiences"].default, ge=1)
    strict_mode: bool = False


class _Minds:
    """One Mind per name for the server's life (their recall caches stay warm), on one store."""

    def __init__(self, store: GraphStore, settings: Settings):
        self.store, self.settings = store, settings
        self._open: dict[str, Mind] = {}
        self._existing: set[str] = set()
        self._lock = threading.Lock()

    def get(self, name: str) -> Mind:
        with self._lock:
            if name not in self._open:
                self._open[name] = Mind(name, self.store, self.settings)
            return self._open[name]

    def exists(self, mind: Mind) -> bool:
        """Whether ``mind`` holds anything; a mind seen to exist is not asked again."""
        if mind.name not in self._existing and mind.exists():
            self._existing.add(mind.name)
        return mind.name in self._existing

    def close(self) -> None:
        with self._lock:
            minds, self._open = list(self._open.values()), {}
        for mind in minds:
            mind.close()


def create_app(settings: Settings, store: GraphStore) -> FastAPI:
    """The API on ``store``; the caller owns the store (``graphmind serve`` closes it)."""
    minds = _Minds(store, settings)
    jobs = Jobs(store)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if interrupted := jobs.recover():
            log.warning("%d job(s) left by a stopped server now read 'interrupted'", interrupted)
        yield
        jobs.close()
        minds.close()

    app = FastAPI(
        title="graphmind",
        version="0.1.0",
        lifespan=lifespan,
        responses=PROBLEMS,
        description="A Neo4j-backed knowledge-graph memory engine for LLM agents.",
    )

    def contract() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
            schema.setdefault("components", {}).setdefault("schemas", {})["Problem"] = Problem.model_json_schema()
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = contract  # type: ignore[method-assign]

    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        return problem(exc.status, str(exc), headers=headers)

    @app.exception_handler(GraphmindError)
    async def graphmind_error(_: Request, exc: GraphmindError) -> JSONResponse:
        return problem(status_of(exc), str(exc))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        """FastAPI's own answers (an unknown route: 404, a wrong method: 405) as problems too."""
        return problem(exc.status_code, str(exc.detail), headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def invalid_body(_: Request, exc: RequestValidationError) -> JSONResponse:
        fields = [
            {"path": ".".join(str(p) for p in e.get("loc", ())), "error": str(e.get("msg", ""))[:200]}
            for e in exc.errors()[:MAX_FIELD_ERRORS]
        ]
        first = f"{fields[0]['path']}: {fields[0]['error']}" if fields else "the request does not fit its model"
        broken = next((e for e in exc.errors() if e.get("type") == "json_invalid"), None)
        if broken is not None:  # FastAPI says "body.14: JSON decode error"
            at = broken.get("loc", ("body", "?"))[-1]
            first = f"the request body is not valid JSON (at character {at}): {broken.get('ctx', {}).get('error', '')}"
        return problem(422, first.rstrip(": "), errors=fields)

    def allowed(scope: Scope) -> Callable[..., Mind]:
        def check(mind: str, authorization: str | None = Header(default=None)) -> Mind:
            key = _key(store, authorization)
            if key.mind != mind:
                raise ApiError(404, f"no mind {mind!r} for this key")
            if not key.allows(scope):
                raise ApiError(403, f"this key may {key.scope}, and this call needs {scope}")
            check_mind_name(mind)
            opened = minds.get(mind)
            if scope == "read" and not minds.exists(opened):  # a write (capture, import) makes it
                raise ApiError(404, f"mind {mind!r} does not exist: nothing was captured or imported into it yet")
            return opened

        return check

    app.include_router(wander_router(allowed, jobs))
    app.include_router(forget_router(allowed))
    app.include_router(memory_router(allowed))

    @app.get(f"{API}/stats", tags=["mind"])
    def stats(mind: Mind = Depends(allowed("read"))) -> dict[str, Any]:
        """The mind's nodes by label and relationships by type, and the nodes out of use by label."""
        return mind.stats().as_dict()

    @app.get(
        f"{API}/export",
        tags=["mind"],
        response_class=StreamingResponse,
        responses={
            200: {
                "description": "JSON Lines, one node or edge per line",
                "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
            }
        },
    )
    def export(mind: Mind = Depends(allowed("read"))) -> StreamingResponse:
        """The mind as JSON Lines, the import format, streamed."""
        lines = mind.export_jsonl()
        return StreamingResponse((line + "\n" for line in lines), media_type="application/x-ndjson")

    @app.post(f"{API}/capture", tags=["memory"])
    def capture(body: CaptureRequest, mind: Mind = Depends(allowed("write"))) -> dict[str, Any]:
        """Record one experience now (stored before the answer): its id, and ``created``, false
        when the same experience was stored under its id already (a retry: not written again;
        its ``supersedes`` / ``contradicts`` marks are made again)."""
        experience = body.experience.model_dump(exclude_none=True)
        older, against = body.supersedes, body.contradicts
        done = mind.capture_once(
            experience, session_id=body.session_id, wait=True, supersedes=older, contradicts=against
        )
        return {"id": done.id, "created": done.created}

    @app.post(f"{API}/ruminate", tags=["engines"])
    def ruminate(body: RuminateRequest, mind: Mind = Depends(allowed("write"))) -> dict[str, Any]:
        """Ruminate on a message and return the Context Object with the steps that led to it."""
        return mind.ruminate(body.text, sender=body.sender).as_dict()

    @app.get(f"{API}/digest", tags=["engines"])
    def digest(
        n: int = Query(2, ge=1, le=50),
        rng_seed: int | None = None,
        min_age: int = Query(7, ge=0),
        limit: int = Query(5, ge=1, le=100),
        mind: Mind = Depends(allowed("read")),
    ) -> dict[str, Any]:
        """The three digests (shown entries count a hit)."""
        params = DigestParams(n=n, min_age_days=min_age, limit=limit)
        return mind.digest(params, rng_seed=rng_seed).as_dict()

    @app.post(f"{API}/digest/absorb", tags=["engines"])
    def absorb(body: AbsorbRequest, mind: Mind = Depends(allowed("write"))) -> dict[str, Any]:
        """Mark a topic entry absorbed."""
        mind.absorb(body.entry_id)
        return {"mind": mind.name, "absorbed": body.entry_id}

    @app.post(f"{API}/verify", tags=["engines"])
    def verify(mind: Mind = Depends(allowed("read"))) -> dict[str, Any]:
        """The five checks on the ladder the mind holds now."""
        return mind.verify().as_dict()

    @app.post(f"{API}/import", tags=["mind"], responses={202: {"description": "A large import, run as a job"}})
    def import_(
        body: bytes = Body(media_type="application/x-ndjson"),
        strict: bool = True,
        job: bool | None = None,
        mind: Mind = Depends(allowed("write")),
    ) -> Any:
        """Import JSON Lines (the body); under ``strict`` one bad line writes nothing. A large body
        (over IMPORT_JOB_BYTES or IMPORT_JOB_LINES), or ``job=true``, runs as a job: 202 and its
        address in ``Location``, the import report as the job's result (``job=false`` waits)."""
        large = len(body) > IMPORT_JOB_BYTES or body.count(b"\n") > IMPORT_JOB_LINES
        if not (job if job is not None else large):
            with tempfile.TemporaryDirectory(prefix="graphmind-import-") as folder:
                path = Path(folder) / "body.jsonl"
                path.write_bytes(body)
                return mind.import_jsonl(path, strict=strict).as_dict()
        kept = Path(tempfile.mkdtemp(prefix="graphmind-import-"))  # the job removes it
        (kept / "body.jsonl").write_bytes(body)

        def work(progress: Callable[[str], None]) -> dict[str, Any]:
            try:
                return mind.import_jsonl(
                    kept / "body.jsonl",
                    strict=strict,
                    progress=lambda kind, done, total: progress(f"{kind} {done}/{total}"),
                ).as_dict()
            finally:
                shutil.rmtree(kept, ignore_errors=True)

        job_id = jobs.submit(mind.name, "import", work)
        return JSONResponse(
            {"job": job_id, "status": "queued"}, status_code=202, headers={"Location": f"/api/v1/jobs/{job_id}"}
        )

    @app.post(f"{API}/dream", tags=["engines"], status_code=202)
    def dream(body: DreamRequest | None = None, mind: Mind = Depends(allowed("write"))) -> JSONResponse:
        """Start a dream run as a job: 202, and the job's address in ``Location``."""
        params = DreamParams(**(body or DreamRequest.model_validate({})).model_dump())
        mind.require_session(params.session)  # a typo is a 404 now, not a failed job later
        trigger = "session-complete" if params.session else "manual"
        job_id = jobs.submit(mind.name, "dream", lambda on: mind.dream(params, trigger=trigger, progress=on).as_dict())
        return JSONResponse(
            {"job": job_id, "status": "queued"}, status_code=202, headers={"Location": f"/api/v1/jobs/{job_id}"}
        )

    def job_of_key(job_id: str, authorization: str | None, scope: Scope) -> dict[str, Any]:
        key = _key(store, authorization)
        job = jobs.get(job_id)
        if job["mind"] != key.mind:
            raise ApiError(404, f"no job {job_id!r} for this key")
        if not key.allows(scope):
            raise ApiError(403, f"this key may {key.scope}, and this call needs {scope}")
        return job

    @app.get("/api/v1/jobs/{job_id}", tags=["jobs"])
    def job(job_id: str, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """A job's status (queued, running, completed, failed, cancelled, interrupted), progress
        and result."""
        return job_of_key(job_id, authorization, "read")

    @app.delete("/api/v1/jobs/{job_id}", tags=["jobs"], status_code=202)
    def cancel(job_id: str, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """Ask a job to stop; a dream stops between phases and writes nothing."""
        job_of_key(job_id, authorization, "write")
        return {**jobs.cancel(job_id), "cancel_requested": True}

    return app


def _key(store: GraphStore, authorization: str | None) -> ApiKey:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "an API key is needed: send 'Authorization: Bearer <key>' (graphmind keys create --mind M)")
    key = find_key(store, token.strip())
    if key is None:
        raise ApiError(401, "this API key is not valid (revoked, or never made)")
    return key
