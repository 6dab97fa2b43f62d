"""``graphmind serve`` (the REST API on uvicorn), ``graphmind mcp`` (an MCP server over stdio) and
``graphmind keys create | list | revoke``."""

from __future__ import annotations

import click

from graphmind.app import open_store
from graphmind.cli.options import JSON, MIND
from graphmind.cli.render import emit
from graphmind.config import Settings
from graphmind.server.keys import SCOPES, create_key, list_keys, revoke_key
from graphmind.store.minds import check_mind_name


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on (loopback by default).")
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True)
def serve(host: str, port: int) -> None:
    """Serve the REST API (/api/v1/minds/{mind}/..., OpenAPI at /openapi.json) until interrupted."""
    import uvicorn

    from graphmind.server.app import create_app

    settings = Settings.from_env()
    store = open_store(settings)
    try:
        store.verify()
        uvicorn.run(create_app(settings, store), host=host, port=port, log_level="warning")
    finally:
        store.close()


@click.command()
@MIND
@click.option("--http", "over_http", is_flag=True, help="Serve over streamable HTTP (bearer keys) instead of stdio.")
@click.option("--host", default="127.0.0.1", show_default=True, help="With --http: the address (loopback by default).")
@click.option("--port", type=click.IntRange(1, 65535), default=8766, show_default=True, help="With --http: the port.")
def mcp(mind: str, over_http: bool, host: str, port: int) -> None:
    """Serve one mind to an MCP client over stdio, or over streamable HTTP at /mcp with --http
    (each request needs a key of the mind: graphmind keys create; tools that write need a write key)."""
    from graphmind.mind import Mind
    from graphmind.server.mcp_server import build_server

    with Mind.open(mind) as m:
        server = build_server(m)
        if not over_http:
            server.run("stdio")
            return
        import uvicorn

        from graphmind.server.mcp_http import KeyGate

        m.store.verify()
        app = KeyGate(server.streamable_http_app(host=host), m.store, m.name)
        uvicorn.run(app, host=host, port=port, log_level="warning")


@click.group()
def keys() -> None:
    """API keys for the REST API: one mind and one scope each, stored only as their hash."""


@keys.command()
@MIND
@click.option(
    "--scope",
    type=click.Choice(SCOPES),
    default="read",
    show_default=True,
    help="read: recall, ask, knowledge, stats, export, digest, verify, job status; write: also capture, import, "
    "forget, ruminate, dream, wander, absorb, cancel jobs; admin: as write (no verb needs more yet).",
)
@JSON
def create(mind: str, scope: str, as_json: bool) -> None:
    """Make a key for a mind and print it once (only its hash is kept)."""
    check_mind_name(mind)
    store = open_store(Settings.from_env())
    try:
        record, key = create_key(store, mind, scope)
    finally:
        store.close()
    emit(
        {**record.as_dict(), "key": key},
        as_json,
        f"{key}\n(key {record.id}, {scope} on mind {mind!r}; shown once: keep it now)",
    )


@keys.command("list")
@MIND
@JSON
def list_(mind: str, as_json: bool) -> None:
    """The keys of a mind: ids, scopes and dates, never the keys."""
    store = open_store(Settings.from_env())
    try:
        rows = list_keys(store, check_mind_name(mind))
    finally:
        store.close()
    emit(
        {"mind": mind, "keys": rows},
        as_json,
        "\n".join(f"{r['id']}  {r['scope']:<5}  {r['created_at']}" for r in rows) or f"mind {mind!r} has no keys",
    )


@keys.command()
@click.argument("key_id")
@MIND
@JSON
def revoke(key_id: str, mind: str, as_json: bool) -> None:
    """Revoke the key KEY_ID of a mind: calls with it answer 401 from now on."""
    store = open_store(Settings.from_env())
    try:
        revoke_key(store, check_mind_name(mind), key_id)
    finally:
        store.close()
    emit({"mind": mind, "revoked": key_id}, as_json, f"revoked key {key_id} of mind {mind!r}")


COMMANDS = (serve, mcp, keys)
