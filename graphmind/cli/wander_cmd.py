"""``graphmind wander``: start, step, run, pause, resume, stop, status, trace, crystals, inject,
fence, crystallize, approve and map a wander session; list (paged), show, update, delete a
session and list its loci (paged) or every session's crystals (each with ``--json``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from graphmind.cli.options import JSON, MIND, FilePath
from graphmind.cli.render import emit
from graphmind.cli.wander_options import PAGING as PAGING
from graphmind.cli.wander_options import _config as _config
from graphmind.cli.wander_options import _more as _more
from graphmind.cli.wander_options import _run_text as _run_text
from graphmind.cli.wander_options import paged as paged
from graphmind.cli.wander_options import session_options as session_options
from graphmind.mind import Mind
from graphmind.text import trim
from graphmind.wander.wanderer import Wander

SESSION = click.argument("session_id")


def session_verb(fn: Any) -> Any:
    """A ``wander`` verb on one session: SESSION_ID, --mind and --json, named after ``fn``."""
    return wander.command(name=fn.__name__.rstrip("_"))(SESSION(MIND(JSON(fn))))


@contextmanager
def opened(mind: str, session_id: str) -> Iterator[Wander]:
    """The handle of session ``session_id`` of ``mind``, open for the verb's duration."""
    with Mind.open(mind) as m:
        yield m.wander(session_id=session_id)


@click.group()
def wander() -> None:
    """Exploration sessions through idea space."""


@wander.command()
@MIND
@click.option("--seed", required=True, help="The seed concept.")
@session_options
@JSON
def start(mind: str, seed: str, as_json: bool, **options: Any) -> None:
    """Start a session at the seed concept (no step taken)."""
    with Mind.open(mind) as m:
        status = m.wander(seed, **_config(options)).status()
    emit(status, as_json, f"started {status['session_id']} at {seed!r}")


@wander.command()
@MIND
@click.option("--seed", default=None, help="The seed concept of a new session.")
@click.option("--session", "session_id", default=None, help="Continue this session instead.")
@click.option("--steps", type=click.IntRange(1), required=True, help="How many steps to take.")
@session_options
@JSON
def run(mind: str, seed: str | None, session_id: str | None, steps: int, as_json: bool, **options: Any) -> None:
    """Take up to N steps, in a new session from --seed or in --session."""
    if (seed is None) == (session_id is None):
        raise click.UsageError("give either --seed (a new session) or --session (an existing one)")
    with Mind.open(mind) as m:
        config = _config(options)
        handle = m.wander(seed, **config) if seed else m.wander(session_id=session_id, **config)
        report = handle.run(steps)
    emit(report.as_dict(), as_json, _run_text(report))


@session_verb
def step(session_id: str, mind: str, as_json: bool) -> None:
    """Take one step."""
    with opened(mind, session_id) as walk:
        report = walk.run(1)
    payload = report.as_dict() | {"step": report.steps[0].as_dict() if report.steps else None}
    emit(payload, as_json, _run_text(report))


def _status_verb(name: str, doc: str) -> None:
    def verb(session_id: str, mind: str, as_json: bool) -> None:
        with opened(mind, session_id) as walk:
            getattr(walk, name)()
            status = walk.status()
        emit(status, as_json, f"{session_id}: {status['status']}")

    verb.__name__, verb.__doc__ = name, doc
    session_verb(verb)


_status_verb("pause", "Pause a session (resume continues it).")
_status_verb("resume", "Resume a paused session.")
_status_verb("stop", "Stop a session (completed).")


@session_verb
def status(session_id: str, mind: str, as_json: bool) -> None:
    """Where a session stands."""
    with opened(mind, session_id) as walk:
        s = walk.status()
    emit(s, as_json, "\n".join(f"{k}: {v}" for k, v in s.items()))


@session_verb
def trace(session_id: str, mind: str, as_json: bool) -> None:
    """The steps of a session, in order."""
    with opened(mind, session_id) as walk:
        rows = walk.trace()
    steps = [
        {
            "step_number": r["step_number"],
            "from": r["from_id"],
            "to": r["to_id"],
            "to_concept": r["to_concept"],
            "strategy": r["trace"].get("strategy"),
            "score": r["trace"].get("score"),
            "residue": r["residue_id"],
            "themes": r["themes"],
        }
        for r in rows
    ]
    emit(
        {"session_id": session_id, "steps": steps},
        as_json,
        "\n".join(f"{s['step_number']:>4}. {trim(s['to_concept'], 70)} [{s['strategy']}]" for s in steps)
        or "no steps yet",
    )


@wander.command()
@click.argument("session_id", required=False)
@MIND
@click.option("--all-sessions", is_flag=True, help="The crystals of every session of the mind.")
@paged
@JSON
def crystals(session_id: str | None, mind: str, all_sessions: bool, limit: int, offset: int, as_json: bool) -> None:
    """The crystals a session formed (or --all-sessions: the mind's), newest first, a page at a
    time, with their evidence."""
    if (session_id is not None) == all_sessions:
        raise click.UsageError("give a SESSION_ID or --all-sessions")
    with Mind.open(mind, must_exist=True) as m:
        page = m.wander_sessions.crystal_page(session_id, limit=limit, offset=offset)
    lines = [
        f"{c['id']} [{c.get('status')}, confidence {c.get('confidence')}"
        + (f", session {c.get('session_id')}" if all_sessions else "")
        + f"]: {c['insight']}\n"
        f"    evidence: {', '.join(c['evidence'])}"
        for c in page.crystals
    ]
    emit(
        {"mind": mind, **page.as_dict()},
        as_json,
        "\n".join([*lines, _more(offset, len(page.crystals), page.total, page.next_offset, "crystals")]),
    )


@wander.command(name="list")
@MIND
@click.option(
    "--status",
    type=click.Choice(["active", "paused", "completed", "abandoned"]),
    default=None,
    help="Only sessions with this status.",
)
@paged
@JSON
def list_(mind: str, status: str | None, limit: int, offset: int, as_json: bool) -> None:
    """The mind's wander sessions, newest first, a page at a time."""
    with Mind.open(mind, must_exist=True) as m:
        page = m.wander_sessions.page(status, limit=limit, offset=offset)
    lines = [
        f"{s.id}  {s.status:<9}  {s.steps_completed or 0:>5} steps  {s.crystals_formed or 0:>3} crystals  "
        f"{trim(s.name or s.seed_concept, 60)}"
        for s in page.sessions
    ]
    emit(
        {"mind": mind, **page.as_dict()},
        as_json,
        "\n".join([*lines, _more(offset, len(page.sessions), page.total, page.next_offset, "sessions")]),
    )


@session_verb
def show(session_id: str, mind: str, as_json: bool) -> None:
    """A session's configuration, state and what it holds."""
    with Mind.open(mind, must_exist=True) as m:
        shown = m.wander_sessions.show(session_id)
    holds = shown.get("holds") or {}
    lines = [f"{k}: {v}" for k, v in shown.items() if k != "holds"]
    lines.append("holds: " + ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in holds.items()))
    emit({"mind": mind, "session": shown}, as_json, "\n".join(lines))


@session_verb
def delete(session_id: str, mind: str, as_json: bool) -> None:
    """Delete a session with its own loci, residues, resonances and trace (memories stay)."""
    with Mind.open(mind, must_exist=True) as m:
        done = m.wander_sessions.delete(session_id)
    emit(
        {"mind": mind, "deleted": session_id, **done},
        as_json,
        f"deleted {session_id}: {done['removed']} nodes of its own and {done['traces']} steps "
        "(the mind's memories and crystals stay)",
    )


@session_verb
@session_options
def update(session_id: str, mind: str, as_json: bool, **options: Any) -> None:
    """Change a session's settings (the options of 'wander start')."""
    changes = _config(options)
    if not changes:
        raise click.UsageError("give at least one setting to change (see --help)")
    with Mind.open(mind, must_exist=True) as m:
        session = m.wander_sessions.update(session_id, **changes)
    emit(
        {"mind": mind, "session": session.model_dump(mode="json", exclude_none=True)},
        as_json,
        f"updated {session_id}: " + ", ".join(f"{k}={v}" for k, v in changes.items()),
    )


@session_verb
@paged
def loci(session_id: str, mind: str, limit: int, offset: int, as_json: bool) -> None:
    """The loci of a session (those it made and the memory loci it visited), most visited first."""
    with Mind.open(mind, must_exist=True) as m:
        page = m.wander_sessions.loci(session_id, limit=limit, offset=offset)
    lines = [
        f"{lo['id']}  {lo['visits']:>3} visits  {(lo['source_type'] or '?'):<12}  {trim(lo['concept'] or '', 70)}"
        for lo in page.loci
    ]
    emit(
        {"mind": mind, **page.as_dict()},
        as_json,
        "\n".join([*lines, _more(offset, len(page.loci), page.total, page.next_offset, "loci")]),
    )


@wander.command()
@SESSION
@click.argument("concept")
@MIND
@click.option("--no-visit", is_flag=True, help="Add the concept without forcing the next step there.")
@JSON
def inject(session_id: str, concept: str, mind: str, no_visit: bool, as_json: bool) -> None:
    """Inject CONCEPT into the session's idea space (the next step visits it)."""
    with opened(mind, session_id) as walk:
        locus = walk.inject(concept, force_visit=not no_visit)
    emit(
        {"session_id": session_id, "locus_id": locus, "force_visit": not no_visit},
        as_json,
        f"injected {concept!r} as {locus}",
    )


@wander.command()
@SESSION
@click.argument("concept")
@MIND
@click.option("--include", "action", flag_value="include", help="Widen the fence with CONCEPT.")
@click.option("--exclude", "action", flag_value="exclude", help="Fence CONCEPT out.")
@JSON
def fence(session_id: str, concept: str, mind: str, action: str | None, as_json: bool) -> None:
    """Change the session's fence: --include or --exclude CONCEPT."""
    if action is None:
        raise click.UsageError("give --include or --exclude")
    with opened(mind, session_id) as walk:
        s = walk.fence(concept, action)
    emit(
        {"session_id": session_id, "fence_concepts": s.fence_concepts, "fence_excluded": s.fence_excluded},
        as_json,
        f"fence: {s.fence_concepts or '(seed only)'}; excluded: {s.fence_excluded or 'nothing'}",
    )


@session_verb
def crystallize(session_id: str, mind: str, as_json: bool) -> None:
    """Force a crystallization attempt at the current locus."""
    with opened(mind, session_id) as walk:
        result = walk.crystallize()
    payload = {
        "session_id": session_id,
        "formed": result.formed,
        "crystal_id": result.crystal_id,
        "status": result.status,
        "insight": result.insight,
        "notes": result.notes,
        "evidence": list(result.evidence),
    }
    emit(
        payload,
        as_json,
        f"{result.crystal_id} ({result.status}): {result.insight}" if result.formed else f"no crystal: {result.notes}",
    )


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


@session_verb
@click.option("--out", type=FilePath(dir_okay=False, writable=True), required=True, help="The PNG to write.")
def map_(session_id: str, mind: str, out: str, as_json: bool) -> None:
    """Draw the session's map: loci by meaning, coloured by domain, sized by visits, with the
    trace, crystals (stars) and resonance clusters (halos)."""
    with opened(mind, session_id) as walk:
        report = walk.map(out)
    d = report.as_dict()
    emit(
        d,
        as_json,
        f"wrote {d['out']}: {d['loci']} loci, {d['steps']} steps, {d['crystals']} crystals, "
        f"{d['resonance_clusters']} resonance clusters ({d['projection']})",
    )


COMMANDS = (wander,)
