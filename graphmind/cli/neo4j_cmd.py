"""``graphmind neo4j start|stop|status``: the local Neo4j without Docker."""

from __future__ import annotations

from dataclasses import asdict

import click

from graphmind.cli.options import JSON
from graphmind.cli.render import emit
from graphmind.config import Settings
from graphmind.launcher import LocalNeo4j, Neo4jStatus


@click.group()
def neo4j() -> None:
    """Run Neo4j 5.26 Community locally from Maven Central jars (no Docker)."""


@neo4j.command()
@JSON
def start(as_json: bool) -> None:
    """Start the local Neo4j (fetches the jars once) and wait until Bolt answers."""
    _show(LocalNeo4j(Settings.from_env()).start(), as_json)


@neo4j.command()
@JSON
def stop(as_json: bool) -> None:
    """Stop the local Neo4j gracefully."""
    _show(LocalNeo4j(Settings.from_env()).stop(), as_json)


@neo4j.command()
@JSON
def status(as_json: bool) -> None:
    """Tell whether the local Neo4j runs, and where."""
    _show(LocalNeo4j(Settings.from_env()).status(), as_json)


def _show(status: Neo4jStatus, as_json: bool) -> None:
    state = f"running (pid {status.pid})" if status.running else "stopped"
    text = (f"Neo4j {state}\n  bolt:     {status.uri}\n  browser:  {status.browser_url}\n"
            f"  user:     {status.user}\n  password: {status.password_file}\n  log:      {status.log_file}")
    emit(asdict(status), as_json, text)
