"""``graphmind neo4j start|stop|status``: the local Neo4j without Docker."""

from __future__ import annotations

from contextlib import closing
from dataclasses import asdict

import click

from graphmind.app import open_store
from graphmind.cli.options import JSON
from graphmind.cli.render import emit
from graphmind.config import Settings
from graphmind.dream.graph import end_crashed_runs
from graphmind.launcher import LocalNeo4j, Neo4jStatus


@click.group()
def neo4j() -> None:
    """Run Neo4j 5.26 Community locally from Maven Central jars (no Docker)."""


@neo4j.command()
@JSON
def start(as_json: bool) -> None:
    """Start the local Neo4j (fetches the jars once) and wait until Bolt answers. A fresh start
    ends what a crash left: dream runs still marked running read interrupted, their leases freed."""
    settings = Settings.from_env()
    local = LocalNeo4j(settings)
    fresh = not local.status().running
    status = local.start()
    if fresh and not settings.neo4j_uri:  # NEO4J_URI names another server: not this one's runs
        with closing(open_store(settings)) as store:
            interrupted, _ = end_crashed_runs(store)
        if interrupted:
            click.echo(f"{interrupted} dream run(s) a crash left running marked interrupted", err=True)
    _show(status, as_json)


@neo4j.command()
@JSON
def stop(as_json: bool) -> None:
    """Stop the local Neo4j gracefully."""
    _show(LocalNeo4j(Settings.from_env()).stop(), as_json, login=False)


@neo4j.command()
@click.option("--show-password", is_flag=True, help="Print the password itself (to paste into Neo4j Browser).")
@JSON
def status(show_password: bool, as_json: bool) -> None:
    """Tell whether the local Neo4j runs, where, and how to log in to Neo4j Browser."""
    local = LocalNeo4j(Settings.from_env())
    _show(local.status(), as_json, local.password() if show_password else None)


def _show(status: Neo4jStatus, as_json: bool, password: str | None = None, *, login: bool = True) -> None:
    """The server's state; ``login``: and how to log in to Neo4j Browser (not after a stop)."""
    state = f"running (pid {status.pid})" if status.running else "stopped"
    secret = (
        f"  Password:        {password}"
        if password
        else f"  Password:        the text in {status.password_file} "
        f"(print it with: graphmind neo4j status --show-password)"
    )
    text = f"Neo4j {state}\n  bolt:     {status.uri}\n  log:      {status.log_file}"
    if login:
        then = "" if status.running else "Once started ('graphmind neo4j start'), "
        text += (
            f"\n\n{then}Neo4j Browser: open {status.browser_url} and log in with\n"
            f"  Connect URL:     {status.uri}\n"
            f"  Authentication:  Username / Password\n"
            f"  Username:        {status.user}\n{secret}"
        )
    payload = asdict(status) | ({"password": password} if password else {})
    emit(payload, as_json, text)
