"""``graphmind minds list | delete``: the minds of the database."""

from __future__ import annotations

import sys

import click

from graphmind.cli.options import JSON
from graphmind.cli.render import emit
from graphmind.mind import Mind
from graphmind.store.minds import check_mind_name


@click.group()
def minds() -> None:
    """List the minds of the database, or delete one."""


@minds.command("list")
@JSON
def list_(as_json: bool) -> None:
    """Every mind with its memory and run counts."""
    found = Mind.list_minds()
    width = max((len(m.name) for m in found), default=4)
    lines = [f"{m.name.ljust(width)}  {m.memories:>10,} memories  {m.runs:>6,} runs" for m in found]
    emit(
        {"minds": [m.as_dict() for m in found]},
        as_json,
        "\n".join(lines) if lines else "no minds yet: 'graphmind import FILE --mind NAME' makes one",
    )


@minds.command()
@click.argument("name")
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@JSON
def delete(name: str, yes: bool, as_json: bool) -> None:
    """Delete the mind NAME: every node and relationship of it (other minds are untouched)."""
    check_mind_name(name)
    if not yes and not sys.stdin.isatty():
        raise click.UsageError(f"deleting mind {name!r} needs --yes when no terminal can confirm it")
    with Mind.open(name, must_exist=True) as m:
        nodes = m.stats().nodes
        if not yes:
            click.confirm(f"delete mind {name!r} and its {nodes:,} nodes?", abort=True, err=True)
        m.delete()
    emit({"mind": name, "deleted_nodes": nodes}, as_json, f"deleted mind {name!r} ({nodes:,} nodes)")
