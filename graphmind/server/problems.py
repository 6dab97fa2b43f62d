"""RFC 9457 problem bodies: every error the REST API answers, FastAPI's own 404 and 405 too."""

from __future__ import annotations

import http
from typing import Any

from fastapi.responses import JSONResponse

from graphmind.errors import ConflictError, GraphmindError, InputError, NotFoundError, StoreUnavailableError


class ApiError(Exception):
    """An answer other than 200, with its status and one sentence."""

    def __init__(self, status: int, sentence: str):
        super().__init__(sentence)
        self.status = status


def problem(status: int, detail: str, *, headers: dict[str, str] | None = None, **extra: Any) -> JSONResponse:
    """An RFC 9457 problem: ``{type, title, status, detail}`` (detail: one sentence, bounded)."""
    body = {
        "type": "about:blank",
        "title": http.HTTPStatus(status).phrase,
        "status": status,
        "detail": " ".join(detail.split())[:2000],
        **extra,
    }
    return JSONResponse(body, status_code=status, headers=headers, media_type="application/problem+json")


def status_of(exc: GraphmindError) -> int:
    """The HTTP status of one of graphmind's errors: not found 404, a conflict 409, bad input 400, Neo4j away 503."""
    if isinstance(exc, NotFoundError):
        return 404
    if isinstance(exc, ConflictError):
        return 409
    if isinstance(exc, InputError):
        return 400
    if isinstance(exc, StoreUnavailableError):
        return 503
    return 500
