"""``graphmind init | import | export | stats | capture``: the graph and one mind's data."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

import click

from graphmind.app import init_database, open_store
from graphmind.cli.demo import demo
from graphmind.cli.options import JSON, MIND, FilePath
from graphmind.cli.render import emit, stderr_is_terminal, table
from graphmind.config import Settings
from graphmind.errors import InputError
from graphmind.io.jsonl import open_input
from graphmind.mind import Mind
from graphmind.store.minds import list_minds


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
@click.argument("file", type=FilePath(path_type=Path))
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
    open_input(file).close()  # a file that cannot be read is refused before the database is asked
    with Mind.open(mind) as m:
        note = new_mind_note(m) if not m.exists() else ""
        report = m.import_jsonl(file, strict=strict, progress=show)
        note = note if m.exists() else ""  # nothing written: no mind was made
    if show:
        click.echo("", err=True)
    for bad in report.invalid[:20]:
        click.echo(f"graphmind: skipped {bad.sentence()}", err=True)
    emit(
        report.as_dict() | {"new_mind": bool(note)},
        as_json,
        f"imported {report.nodes:,} nodes ({report.new:,} new, {report.changed:,} changed, "
        f"{report.unchanged:,} unchanged) and {report.edges:,} edges into mind {mind!r}"
        + (f"; skipped {report.skipped:,} invalid line(s)" if report.skipped else "")
        + (
            f"; {report.invalidated:,} older memories marked no longer valid (their replacing edges)"
            if report.invalidated
            else ""
        )
        + (f"; {report.respoken:,} turns now spoken by their Partnership or Identity" if report.respoken else "")
        + note,
    )


def new_mind_note(m: Mind) -> str:
    """What to tell when a command is about to make mind ``m`` (a typo makes a mind too), naming
    a mind whose name differs only in case."""
    twins = [s.name for s in list_minds(m.store) if s.name.casefold() == m.name.casefold()]
    also = f"; mind {twins[0]!r} exists" if twins else ""
    return f"\n(mind {m.name!r} is new: this command made it{also}; 'graphmind minds list' shows the others)"


@click.command()
@MIND
@click.option("--output", "-o", type=FilePath(path_type=Path), help="Write to this file instead of stdout.")
def export(mind: str, output: Path | None) -> None:
    """Write a mind as JSON Lines (the import format) to stdout."""
    with Mind.open(mind, must_exist=True) as m, closing(m.export_jsonl()) as lines:  # closed before the driver
        if output is None:
            for line in lines:
                click.echo(line)
            return
        try:
            handle = output.open("w", encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write {output}: {exc.strerror or exc}") from None
        with handle:
            for line in lines:
                handle.write(line + "\n")


@click.command()
@MIND
@JSON
def stats(mind: str, as_json: bool) -> None:
    """Count a mind's nodes by label and its relationships by type; of the nodes, say how many
    are kept for the record but out of use (retired, pruned, invalidated or no longer valid)."""
    with Mind.open(mind, must_exist=True) as m:
        result = m.stats()
    emit(
        result.as_dict(),
        as_json,
        f"mind {mind!r}: {result.nodes:,} nodes\n"
        + table(result.labels, "labels", {k: f"  ({n:,} out of use)" for k, n in result.out_of_use.items()})
        + "\n"
        + table(result.relationships, "relationships"),
    )


def _progress_line(phase: str, done: int, total: int) -> None:
    """Progress of the write phases on one terminal line of stderr."""
    click.echo(f"\rgraphmind: writing {phase} {done:,}/{total:,}", err=True, nl=False)


@click.command()
@click.argument("description")
@MIND
@click.option("--outcome", type=click.Choice(["success", "failure", "progress"]), required=True)
@click.option("--kind", type=click.Choice(["move", "strategy", "insight", "error"]), default="move", show_default=True)
@click.option("--strategy", "strategy_used", help="The strategy the experience applied.")
@click.option("--session", "session_id", help="The session it belongs to.")
@click.option("--valid-from", "valid_from", metavar="DATE", help="When what it says became true (ISO-8601).")
@click.option("--timestamp", metavar="DATE", help="When it happened (ISO-8601; default: now), for a log written later.")
@click.option("--supersedes", multiple=True, metavar="ID", help="An older memory it replaces (repeatable).")
@click.option("--contradicts", multiple=True, metavar="ID", help="An older memory it contradicts (repeatable).")
@click.option("--id", "node_id", metavar="ID", help="Its id (default: made up); the same capture again stores nothing.")
@JSON
def capture(
    description: str,
    mind: str,
    outcome: str,
    kind: str,
    strategy_used: str | None,
    session_id: str | None,
    valid_from: str | None,
    timestamp: str | None,
    supersedes: tuple[str, ...],
    contradicts: tuple[str, ...],
    node_id: str | None,
    as_json: bool,
) -> None:
    """Record one experience in a mind now; memories it supersedes or contradicts are marked
    invalid_at (kept, never deleted; recall ranks them below valid ones). With --id, capturing
    the same experience again stores nothing ("created": false), and other content under that
    id is refused (exit code 2): a script may retry safely."""
    fields = {"strategy_used": strategy_used, "valid_from": valid_from, "timestamp": timestamp, "id": node_id}
    supersedes, contradicts = tuple(dict.fromkeys(supersedes)), tuple(dict.fromkeys(contradicts))
    experience = {"description": description, "outcome": outcome, "kind": kind}
    experience |= {k: v for k, v in fields.items() if v is not None}
    with Mind.open(mind) as m:
        note = new_mind_note(m) if not m.exists() else ""
        done = m.capture_once(
            experience, session_id=session_id, wait=True, supersedes=supersedes, contradicts=contradicts
        )
    payload = {
        "id": done.id,
        "created": done.created,
        "supersedes": list(supersedes),
        "contradicts": list(contradicts),
        "new_mind": bool(note),
    }
    replaced = ", ".join([*supersedes, *contradicts])
    text = f"{'captured' if done.created else 'already captured (nothing stored)'} {done.id} in mind {mind!r}"
    text += f" (replaces {replaced})" if replaced else ""
    text += note
    emit(payload, as_json, text)


COMMANDS = (init, import_, export, stats, demo, capture)
