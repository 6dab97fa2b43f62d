"""``graphmind dream`` (one consolidation cycle, or a watch loop), ``graphmind knowledge`` and
``graphmind verify``."""

from __future__ import annotations

import warnings

import click

from graphmind.cli.options import JSON, MIND
from graphmind.cli.render import emit
from graphmind.dream import CompressionRatioWarning, DreamParams, DreamReport
from graphmind.dream.knowledge import MAX_K as MAX_KNOWLEDGE_K
from graphmind.dream.knowledge import check_k
from graphmind.dream.report import LadderEntry
from graphmind.dream.schedule import Schedule, parse_duration, watch
from graphmind.dream.verify import Verification
from graphmind.dream.waiting import MAX_LIMIT as MAX_WAITING
from graphmind.dream.waiting import Waiting
from graphmind.mind import Mind
from graphmind.models.base import as_datetime
from graphmind.recall.validity import moment
from graphmind.text import plural, trim


@click.command()
@MIND
@click.option("--dry-run", is_flag=True, help="Compute everything; write only the run record.")
@click.option(
    "--domain",
    default="",
    help="What the experiences are about (shown to the LLM); "
    "default: the mind's Identity (its focus area, else its role).",
)
@click.option(
    "--session",
    "session",
    default=None,
    help="Consolidate this session's experiences (and those earlier runs deferred, waiting for more like them).",
)
@click.option(
    "--max-level",
    type=click.IntRange(1, 4),
    default=4,
    show_default=True,
    help="The highest ladder level to build (1: patterns only).",
)
@click.option(
    "--max-experiences",
    type=click.IntRange(min=1),
    default=DreamParams.model_fields["max_experiences"].default,
    show_default=True,
    help="The most unconsumed experiences one run reads, oldest first; the rest wait for the next run.",
)
@click.option(
    "--strict",
    "strict_mode",
    is_flag=True,
    help="A failed verification aborts the run: nothing is written (the spec's strictMode).",
)
@click.option(
    "--clustering", type=click.Choice(["semantic", "structural", "hybrid"]), default="hybrid", show_default=True
)
@click.option("--rng-seed", type=int, default=0, show_default=True, help="Seed of the clustering.")
@click.option(
    "--wait",
    "wait_s",
    type=click.FloatRange(min=0),
    default=0.0,
    show_default=True,
    help="Seconds to wait for another dream run on the mind before refusing.",
)
@click.option(
    "--watch",
    "watching",
    is_flag=True,
    help="Keep dreaming: every --interval, and whenever "
    "50 new experiences have gathered 10 minutes after the last dream.",
)
@click.option("--interval", default=None, help="Period of --watch (e.g. 30m, 1h; default 30m).")
@click.option("--max-runs", type=click.IntRange(min=1), default=None, help="Stop --watch after N runs.")
@click.option(
    "--batch",
    "llm_batch",
    is_flag=True,
    help="Send the pattern extractions to Claude as one "
    "Message Batch: half the price, results in minutes to hours (other providers ignore it).",
)
@JSON
def dream(
    mind: str,
    dry_run: bool,
    domain: str,
    session: str | None,
    max_level: int,
    max_experiences: int,
    strict_mode: bool,
    clustering: str,
    rng_seed: int,
    wait_s: float,
    watching: bool,
    interval: str | None,
    max_runs: int | None,
    llm_batch: bool,
    as_json: bool,
) -> None:
    """Consolidate a mind's new experiences into patterns, an abstraction ladder and
    cross-connections (the night cycle); a progress line per phase goes to stderr."""
    params = DreamParams(
        dry_run=dry_run,
        domain=domain,
        session=session,
        max_level=max_level,
        max_experiences=max_experiences,
        strict_mode=strict_mode,
        clustering=clustering,
        seed=rng_seed,
        wait_seconds=wait_s,
        llm_batch=llm_batch,
    )
    if not watching and (interval is not None or max_runs is not None):
        raise click.UsageError("--interval and --max-runs apply only with --watch")
    schedule = Schedule(interval_s=parse_duration("30m" if interval is None else interval))

    def progress(line: str) -> None:
        click.echo(f"dream: {line}", err=True)

    warnings.simplefilter("ignore", CompressionRatioWarning)  # the report lists it as a warning
    with Mind.open(mind, must_exist=not watching) as m:  # a typo is no empty mind; --watch may wait for one
        if not watching:
            report = m.dream(params, trigger="session-complete" if session else "manual", progress=progress)
            emit(report.as_dict(), as_json, _text(report))
            return

        def run(trigger):
            report = m.dream(params, trigger=trigger, progress=progress)
            emit(report.as_dict(), as_json, _text(report))

        watch(run, lambda: m.dream_due(schedule), schedule, max_runs=max_runs)


@click.command()
@click.argument("text")
@MIND
@click.option("-k", "k", type=int, default=5, show_default=True, help=f"How many patterns (1-{MAX_KNOWLEDGE_K}).")
@JSON
def knowledge(text: str, mind: str, k: int, as_json: bool) -> None:
    """The consolidated patterns about TEXT, with their ladder path and examples; for a
    question whether something helps or works, what did not work is among them, in recall's
    order (meaning and words). Each line opens with the pattern's rank and its cosine to TEXT
    ("2. cos 0.41"); a pattern no more alike to TEXT than unrelated texts are is left out. The
    examples shown are those sharing most words with TEXT."""
    check_k(k)  # before the database is opened: a bad k is the message, whatever its state
    with Mind.open(mind, must_exist=True) as m:
        matches = m.query_knowledge(text, k)
    lines = []
    for rank, match in enumerate(matches, start=1):
        rate = "n/a" if match.success_rate is None else f"{match.success_rate:.0%}"
        failed = f", {match.failure_count} failed" if match.failure_count else ""
        worked = [e for e in match.examples if e.get("outcome") != "failure"]
        verdict = ""
        if match.records_failure:
            verdict = (
                f"  [failed {match.failure_count} of {match.usage_count}]" if match.success_rate else "  [did not work]"
            )
        alike = "" if match.similarity is None else f"cos {match.similarity:.2f}  "
        lines.append(f"{rank}. {alike}{match.name} ({match.usage_count} experiences, success {rate}{failed}){verdict}")
        lines += [f"    (outdated: {match.outdated})"] if match.outdated else []
        lines += [f"    (stale: {match.stale})"] if match.stale and not match.outdated else []
        lines += [f"    L{a['level']} {a['name']}" for a in match.ladder]
        if match.records_failure:  # what failed, and what worked beside it
            lines += [f"    failed: {_told(e)}" for e in match.failures[:3]]
            lines += [f"    worked: {_told(e)}" for e in worked[:2]]
        else:
            lines += [f"    e.g. {_told(e)}" for e in match.examples[:3]]
    emit(
        {"mind": mind, "query": text, "patterns": [x.as_dict() for x in matches]},
        as_json,
        "\n".join(lines)
        or f"no pattern in mind {mind!r} is about this (none is more alike to it than unrelated texts are)",
    )


@click.command()
@MIND
@JSON
def verify(mind: str, as_json: bool) -> None:
    """Check the abstraction ladder MIND holds now, dreamed or imported, with the dreaming
    spec's five checks; exit code 1 when verification fails (0 when verified, flagged or empty)."""
    with Mind.open(mind, must_exist=True) as m:
        result = m.verify()
    emit({"mind": mind, **result.as_dict()}, as_json, verification_text(mind, result))
    if result.status == "failed":
        click.get_current_context().exit(1)


def verification_text(mind: str, result: Verification) -> str:
    if result.status == "empty":
        return f"mind {mind!r} has no abstraction ladder to verify (run 'graphmind dream')"
    lines = [f"mind {mind!r}: {result.status} (score {result.score:.2f})"]
    lines += [f"  {name}: {c.score:.2f}  {c.message}" for name, c in result.checks.items()]
    lines += [
        f"  flagged {f.check}: {_named(f.parent, result)} -> {_named(f.child, result)}: {f.reason}"
        for f in result.flagged
    ]
    return "\n".join(lines)


def _named(node_id: str | None, result: Verification) -> str:
    """``id ("name")``, the name cut to 40 characters; "-" for none."""
    if not node_id:
        return "-"
    name = result.names.get(node_id)
    return f'{node_id} ("{trim(name, 40)}")' if name and name != node_id else node_id


@click.command()
@MIND
@JSON
def ladder(mind: str, as_json: bool) -> None:
    """The abstraction ladder MIND holds now, dreamed or imported: from the top level down to
    the patterns, indented (JSON: its abstractions with their members, and the patterns' names)."""
    with Mind.open(mind, must_exist=True) as m:
        held = m.ladder()
    lines = ladder_tree(held.ladder, {}, held.pattern_names)
    empty = f"mind {mind!r} has no abstraction ladder yet (run 'graphmind dream')"
    emit(held.as_dict(), as_json, "\n".join([f"mind {mind!r}: {held.levels}-level ladder", *lines]) if lines else empty)


@click.command()
@MIND
@click.option("--session", default=None, help="Only this session's experiences.")
@click.option(
    "-n", "--limit", type=click.IntRange(1, MAX_WAITING), default=50, show_default=True, help="List the oldest N."
)
@JSON
def waiting(mind: str, session: str | None, limit: int, as_json: bool) -> None:
    """The experiences of MIND that no pattern holds yet, oldest first: those no dream has read,
    and those dreams left to wait for more like them (how many runs did, and when last)."""
    with Mind.open(mind, must_exist=True) as m:
        found = m.waiting(limit=limit, session=session)
    emit(found.as_dict(), as_json, waiting_text(found))


def waiting_text(found: Waiting) -> str:
    """A summary line, then one line per experience: id, why it waits, its text."""
    if not found.total:
        return f"mind {found.mind!r}: no experience waits for a pattern"
    shown = len(found.experiences)
    lines = [
        f"mind {found.mind!r}: {plural(found.total, 'experience waits', 'experiences wait')} for a pattern"
        + f" ({found.unread} that no dream has read yet, {found.total - found.unread} that a dream left to wait"
        + " for more like them)"
        + (f"; the oldest {shown}:" if shown < found.total else ":")
    ]
    for e in found.experiences:
        why = "unread" if not e.runs else "left by " + plural(e.runs, "run", "runs")
        lines.append(f"  {e.id}  {why}{', superseded' if e.invalid else ''}  {trim(e.description, 90)}")
    return "\n".join(lines)


def report_tree(report: DreamReport) -> list[str]:
    """A dream's ladder, new patterns with their description and experiences."""
    return ladder_tree(report.ladder, {p["id"]: p for p in report.new_patterns}, report.pattern_names)


def ladder_tree(ladder: list[LadderEntry], new: dict[str, dict], names: dict[str, str]) -> list[str]:
    """The ladder from the top level down to the patterns, indented, patterns by name (those in
    ``new`` with their description and experiences)."""
    entries = {e.id: e for e in ladder}
    tops = [e for e in ladder if e.level == max((x.level for x in ladder), default=0)]

    def walk(node_id: str, depth: int) -> list[str]:
        if node_id in entries:
            e = entries[node_id]
            head = [f"{'  ' * depth}L{e.level} {e.name}"]
            return head + [line for m in e.members for line in walk(m, depth + 1)]
        p = new.get(node_id)
        label = f"{p['description']} ({p['usage_count']} experiences)" if p else names.get(node_id, node_id)
        return [f"{'  ' * depth}L1 {label}"]

    return [line for top in tops for line in walk(top.id, 1)]


def _text(report: DreamReport) -> str:
    lines = [report.message, *report_tree(report)]
    lines += [f"  degraded: {note}" for note in report.degraded]
    lines += [f"  warning: {note}" for note in report.warnings]
    return "\n".join(lines)


def _told(example: dict) -> str:
    """An example's description, marked when a later memory superseded it."""
    at = as_datetime(example.get("invalid_at"))
    since = f" since {moment(at)}" if at else ""
    return example["description"] + (f"  (outdated: superseded{since})" if example.get("outdated") else "")


COMMANDS = (dream, knowledge, verify, ladder, waiting)
