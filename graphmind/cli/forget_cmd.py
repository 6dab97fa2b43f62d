"""``graphmind forget ID... --mind M [--cascade] [--dry-run]``: delete memories on request."""

from __future__ import annotations

import click

from graphmind.cli.options import JSON, MIND
from graphmind.cli.render import emit
from graphmind.forget import ForgetReport
from graphmind.mind import Mind


@click.command()
@click.argument("ids", nargs=-1, required=True)
@MIND
@click.option(
    "--cascade",
    is_flag=True,
    help="Also remove what was derived from them and no longer has support (a pattern left with "
    "fewer than its minimum experiences, a crystal with one piece of evidence, an abstraction "
    "with no child, a finding that cites nothing); patterns and abstractions that lost some "
    "support are flagged unverified.",
)
@click.option("--dry-run", is_flag=True, help="List the memories, derived nodes and edges concerned; change nothing.")
@JSON
def forget(ids: tuple[str, ...], mind: str, cascade: bool, dry_run: bool, as_json: bool) -> None:
    """Delete the memories IDS of a mind, their edges, embeddings and verbatim copies of their text.

    All or nothing: an id the mind does not hold fails the whole command."""
    with Mind.open(mind, must_exist=True) as m:
        report = m.forget(list(ids), cascade=cascade, dry_run=dry_run)
    emit(report.as_dict(), as_json, render(report))


def render(report: ForgetReport) -> str:
    """The counts on one line, then the memories, derived nodes and scrubbed properties."""
    c = report.counts()
    verb = "would forget" if report.dry_run else "forgot"
    head = (
        f"{verb} {c['memories']} memor{'y' if c['memories'] == 1 else 'ies'} of mind {report.mind}: "
        f"{c['edges']} edges ({c['provenance_edges']} provenance), {c['derived']} derived "
        f"({c['removed']} removed, {c['unverified']} unverified), {c['scrubbed']} properties scrubbed"
    )
    lines = [head + (f"; run {report.run_id}" if report.run_id else "")]
    lines += [f"  memory   {m.label:<14} {m.id}" for m in report.forgotten]
    lines += _capped(
        [
            f"  {d.action:<8} {d.label:<14} {d.id}  (via {', '.join(d.via)}; support {d.support_before} -> "
            f"{d.support_after})"
            for d in report.derived
        ],
        "derived nodes",
    )
    lines += _capped([f"  scrub    {s.label:<14} {s.id}.{s.property}" for s in report.scrubbed], "properties")
    lines += _capped(
        [f"  edge     ({e.source})-[:{e.type}]->({e.target})" for e in report.edges if e.provenance], "provenance edges"
    )
    lines += _capped([f"  valid    {i}  (nothing supersedes it now)" for i in report.revalidated], "memories")
    lines += _capped(
        [f"  released {i}  (in no pattern now: the next dream consolidates it again)" for i in report.released],
        "released experiences",
    )
    if report.dry_run and not report.cascade and any(d.action == "keep" for d in report.derived):
        lines.append(
            "(without --cascade derived nodes stay and lose their edges; add --cascade to see what it removes)"
        )
    return "\n".join(lines)


def _capped(lines: list[str], what: str) -> list[str]:
    """``lines``, the first ``SHOWN`` of them and a count of the rest where there are more:
    forgetting one pattern can concern a hundred edges, which ``--json`` lists."""
    if len(lines) <= SHOWN + 1:
        return lines
    return [*lines[:SHOWN], f"  ... and {len(lines) - SHOWN} more {what} (--json lists them all)"]


SHOWN = 8
"""Lines shown per kind of change (derived nodes, scrubbed properties, edges, ...)."""

COMMANDS = (forget,)
