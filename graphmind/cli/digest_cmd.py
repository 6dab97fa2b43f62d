"""``graphmind digest`` (the three digests), ``digest absorb`` and ``threads merge``."""

from __future__ import annotations

import click

from graphmind.cli.options import JSON, MIND
from graphmind.cli.render import emit
from graphmind.digest import DigestParams, DigestReport
from graphmind.mind import Mind
from graphmind.text import trim


@click.group(invoke_without_command=True)
@click.option("--mind", "-m", default=None, help="The mind (tenant) to work in.")
@click.option("-n", "n", type=click.IntRange(1, 50), default=2, show_default=True, help="Entries per topic.")
@click.option("--rng-seed", type=int, default=None, help="Seed of the sampling (reproducible digests).")
@click.option(
    "--min-age", type=click.IntRange(0), default=7, show_default=True, help="Days before an entry can be forgotten."
)
@click.option(
    "--limit", type=click.IntRange(1, 100), default=5, show_default=True, help="At most this many forgotten entries."
)
@JSON
@click.pass_context
def digest(
    ctx: click.Context, mind: str | None, n: int, rng_seed: int | None, min_age: int, limit: int, as_json: bool
) -> None:
    """The three digests of a mind, composed as reflect material (shown entries count a hit)."""
    if ctx.invoked_subcommand is not None:
        return
    if mind is None:
        raise click.UsageError("Missing option '--mind' / '-m'.")
    with Mind.open(mind) as m:
        report = m.digest(DigestParams(n=n, min_age_days=min_age, limit=limit), rng_seed=rng_seed)
    emit(report.as_dict(), as_json, _text(report))


def _text(report: DigestReport) -> str:
    """The reflect material, then the ids of the entries it shows (what ``digest absorb`` takes)."""
    shown = [("forgotten", f.entry) for f in report.forgotten]
    shown += [("sampled", e) for entries in report.samples.values() for e in entries]
    lines = [report.material(), *(f"({note})" for note in report.notes)]
    if shown:
        lines += ["", f"entries shown (absorb one with: graphmind digest absorb ID --mind {report.mind}):"]
        width = max(len(e.id) for _, e in shown)
        lines += [f"  {e.id.ljust(width)}  {kind:<9}  [{e.topic}] {trim(e.text, 80)}" for kind, e in shown]
    return "\n".join(lines)


@digest.command()
@click.argument("entry_id")
@MIND
@JSON
def absorb(entry_id: str, mind: str, as_json: bool) -> None:
    """Mark topic entry ENTRY_ID absorbed (digested; kept, no longer listed as forgotten)."""
    with Mind.open(mind) as m:
        m.absorb(entry_id)
    emit({"mind": mind, "absorbed": entry_id}, as_json, f"absorbed {entry_id}")


@click.group()
def threads() -> None:
    """Threads of thought."""


@threads.command()
@click.argument("a")
@click.argument("b")
@click.option("--title", required=True, help="The title of the higher-level thread.")
@MIND
@JSON
def merge(a: str, b: str, title: str, mind: str, as_json: bool) -> None:
    """Merge threads A and B into a new higher-level thread (both kept, linked MERGED_INTO)."""
    with Mind.open(mind) as m:
        merged = m.merge_threads(a, b, title)
    emit(
        {"mind": mind, "merged": [a, b], **merged},
        as_json,
        f"merged {a} and {b} into {merged['id']} ({merged['notes']} notes, {merged['touches']} touches)",
    )


COMMANDS = (digest, threads)
