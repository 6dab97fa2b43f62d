"""``POST /api/v1/minds/{mind}/forget`` (write scope): delete memories on request, as
``graphmind forget`` does; an id the mind does not hold answers 404 and nothing is deleted."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import Field

from graphmind.forget.engine import MAX_IDS
from graphmind.mind import Mind
from graphmind.server.fields import RequestBody
from graphmind.server.keys import Scope


class ForgetRequest(RequestBody):
    ids: list[Annotated[str, Field(min_length=1, max_length=1024)]] = Field(min_length=1, max_length=MAX_IDS)
    cascade: bool = False
    dry_run: bool = False


def forget_router(allowed: Callable[[Scope], Callable[..., Mind]]) -> APIRouter:
    """The forget endpoint; ``allowed(scope)`` is the app's key check for ``{mind}``."""
    router = APIRouter(prefix="/api/v1/minds/{mind}", tags=["memory"])

    @router.post("/forget")
    def forget(body: ForgetRequest, mind: Mind = Depends(allowed("write"))) -> dict[str, Any]:
        """The ForgetReport: memories, edges, derived nodes (and what the cascade does to each),
        scrubbed properties, counts and the ForgetRun's id (none under dry_run)."""
        return mind.forget(body.ids, cascade=body.cascade, dry_run=body.dry_run).as_dict()

    return router
