"""``graphmind mcp --http``: the MCP server over streamable HTTP, behind the REST API's keys.

Every HTTP request carries ``Authorization: Bearer <key>`` (``graphmind keys create``), checked
before the MCP transport sees it: no key or a bad one answers 401, a key of another mind 404 (as
the REST API: a mind's existence does not leak). A read key may call the reading tools; the
tools that write (capture, ruminate, dream, the wander tools) need a write key, which each of
them checks (``scope_of``) and refuses with a tool error.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Send
from starlette.types import Scope as AsgiScope

from graphmind.server.keys import ApiKey, Scope, find_key
from graphmind.store import GraphStore

log = logging.getLogger(__name__)


def bearer(authorization: str | None) -> str | None:
    """The key of an ``Authorization: Bearer <key>`` header (None without one)."""
    scheme, _, token = (authorization or "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def scope_of(store: GraphStore, headers: Mapping[str, str] | None) -> Scope | None:
    """The scope of the key a tool call came with; None over stdio (the local user, all rights)."""
    if headers is None:
        return None
    token = bearer(headers.get("authorization"))
    key = find_key(store, token) if token else None
    if key is None:  # the gate let nothing through without a key: a missing one means no rights
        raise ToolError("an API key is needed for this tool")
    return key.scope


class KeyGate:
    """ASGI middleware: only requests with a key of ``mind`` reach the MCP transport."""

    def __init__(self, app: ASGIApp, store: GraphStore, mind: str):
        self._app, self._store, self._mind = app, store, mind

    async def __call__(self, scope: AsgiScope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        token = bearer(headers.get("authorization"))
        key: ApiKey | None = await run_in_threadpool(find_key, self._store, token) if token else None
        if token is None:
            await _refuse(send, 401, "an API key is needed: send 'Authorization: Bearer <key>'")
        elif key is None:
            await _refuse(send, 401, "this API key is not valid (revoked, or never made)")
        elif key.mind != self._mind:
            await _refuse(send, 404, f"no mind {self._mind!r} for this key")
        else:
            await self._app(scope, receive, send)


async def _refuse(send: Send, status: int, detail: str) -> None:
    log.info("MCP request refused (%d): %s", status, detail)
    body = json.dumps({"type": "about:blank", "status": status, "detail": detail}).encode()
    headers: list[Any] = [(b"content-type", b"application/problem+json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b"Bearer"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
