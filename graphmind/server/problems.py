"""RFC 9457 problem bodies: every error the REST API answers, FastAPI's own 404 and 405 too."""

from __future__ import annotations

import http
from typing import Any

from fastapi.responses import JSONResponse


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
