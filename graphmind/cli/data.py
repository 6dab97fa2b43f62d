"""``graphmind init | import | export | stats``: the graph and one mind's data."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

import click

from graphmind.app import init_database, open_store
from graphmind.cli.demo import demo
from graphmind.cli.options import JSON, MIND
from graphmind.cli.render import emit, stderr_is_terminal, table
from graphmind.config import Settings
from graphmind.mind import Mind


@click.command()
@JSON
def init(as_json: bool) -> None:
    """Apply schema/ (constraints, indexes) idempotently and wait until it is ONLINE."""
    settings = Settings.from_env()
    store = open_store(settings)
    try:
        report = init_database(store, settings)
    finally:
        store.close()
    payload = {
        "applied": report.applied,
        "version": report.version,
        "statements": report.statements,
        "indexes_online": report.indexes_online,
    }
    emit(
        payload,
        as_json,
        f"schema version {report.version} applied "
        f"({report.statements} statements, {report.indexes_online} indexes ONLINE)",
    )


@click.command("import")
@click.argument("file", type=click.Path(path_type=Path))
@MIND
@click.option(
    "--strict/--skip-invalid",
    default=True,
    help="--strict (default): write nothing if any line is bad. --skip-invalid: write the good lines.",
)
@JSON
def import_(file: Path, mind: str, strict: bool, as_json: bool) -> None:
    """Import a JSON Lines FILE into a mind (validated first; idempotent)."""
    show = _progress_line if stderr_is_terminal() else None
    with Mind.open(mind) as m:
        report = m.import_jsonl(file, strict=strict, progress=show)
    if show:
        click.echo("", err=True)
    for bad in report.invalid[:20]:
        click.echo(f"graphmind: skipped {bad.sentence()}", err=True)
    emit(
        report.as_dict(),
        as_json,
        f"imported {report.nodes:,} nodes and {report.edges:,} edges into mind {mind!r}"
        + (f"; skipped {report.skipped:,} invalid line(s)" if report.skipped else ""),
    )


@click.command()
@MIND
@click.option("--output", "-o", type=click.Path(path_type=Path), help="Write to this file instead of stdout.")
def export(mind: str, output: Path | None) -> None:
    """Write a mind as JSON Lines (the import format) to stdout."""
    with Mind.open(mind, must_exist=True) as m, closing(m.export_jsonl()) as lines:  # closed before the driver
        if output is None:
            for line in lines:
                click.echo(line)
            return
        with output.open("w", encoding="utf-8") as handle:
            for line in lines:
                handle.write(line + "\n")


@click.command()
@MIND
@JSON
def stats(mind: str, as_json: bool) -> None:
    """Count a mind's nodes by label and its relationships by type."""
    with Mind.open(mind, must_exist=True) as m:
        result = m.stats()
    emit(
        result.as_dict(),
        as_json,
        f"mind {mind!r}: {result.nodes:,} nodes\n"
        + table(result.labels, "labels")
        + "\n"
        + table(result.relationships, "relationships"),
    )


def _progress_line(phase: str, done: int, total: int) -> None:
    """Progress of the write phases on one terminal line of stderr."""
    click.echo(f"\rgraphmind: writing {phase} {done:,}/{total:,}", err=True, nl=False)


COMMANDS = (init, import_, export, stats, demo)
