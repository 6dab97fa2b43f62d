"""``graphmind wander``: the Wander verbs (``approve`` so far; ``run`` comes with the step loop)."""

from __future__ import annotations

import click

from graphmind.cli.options import JSON, MIND
from graphmind.cli.render import emit
from graphmind.mind import Mind


@click.group()
def wander() -> None:
    """Exploration sessions through idea space."""


@wander.command()
@click.argument("crystal_id")
@MIND
@click.option("--by", required=True, help="Who approves (kept as human_approved_by).")
@JSON
def approve(crystal_id: str, mind: str, by: str, as_json: bool) -> None:
    """Record a human's approval of crystal CRYSTAL_ID."""
    with Mind.open(mind) as m:
        m.crystals().approve(crystal_id, by)
    emit({"mind": mind, "approved": crystal_id, "by": by}, as_json, f"approved {crystal_id} (by {by})")


COMMANDS = (wander,)
