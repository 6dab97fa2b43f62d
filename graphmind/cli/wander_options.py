"""The wander verbs' shared options (session settings, paging) and their text renderings."""

from __future__ import annotations

from typing import Any

import click

from graphmind.text import trim
from graphmind.wander.sessions import MAX_PAGE
from graphmind.wander.wanderer import RunReport


def _config(options: dict[str, Any]) -> dict[str, Any]:
    names = {
        "attractor": "attractor",
        "allowed_domain": "allowed_domains",
        "forbidden_domain": "forbidden_domains",
        "fence": "fence_concepts",
        "max_drift": "max_drift_distance",
        "max_steps": "max_steps",
        "budget_cents": "cloud_budget_cents",
        "temperature": "temperature",
        "checkpoint_every": "human_checkpoint_frequency",
        "rng_seed": "rng_seed",
        "name": "name",
        "dweller": "dweller",
    }
    return {
        names[k]: (list(v) if isinstance(v, tuple) else v)
        for k, v in options.items()
        if k in names and v not in (None, ())
    }


def session_options(fn: Any) -> Any:
    for option in reversed(
        [
            click.option("--name", default=None, help="A name for the session."),
            click.option("--attractor", default=None, help="A concept that pulls the walk."),
            click.option("--allowed-domain", multiple=True, help="Only loci in these domains (repeatable)."),
            click.option("--forbidden-domain", multiple=True, help="Never loci in these domains (repeatable)."),
            click.option("--fence", multiple=True, help="A fence anchor concept besides the seed (repeatable)."),
            click.option("--max-drift", type=click.FloatRange(0, 1), default=None, help="max_drift_distance (0.8)."),
            click.option(
                "--max-steps", type=click.IntRange(1), default=None, help="Steps before the session completes (1000)."
            ),
            click.option("--budget-cents", type=click.IntRange(0), default=None, help="cloud_budget_cents (500)."),
            click.option("--temperature", type=click.FloatRange(0, 5), default=None, help="Softmax temperature (0.7)."),
            click.option(
                "--checkpoint-every",
                type=click.IntRange(0),
                default=None,
                help="Pause for a human every N steps (50; 0: never).",
            ),
            click.option("--rng-seed", type=int, default=None, help="Seed of the walk (same seed, same walk)."),
            click.option(
                "--dweller",
                type=click.Choice(["simple", "rlm"]),
                default=None,
                help="simple: the dwelling prompt; rlm: the dweller queries memory with code in a sandbox.",
            ),
        ]
    ):
        fn = option(fn)
    return fn


def _run_text(report: RunReport) -> str:
    lines = [
        f"{r.step_number:>4}. {trim(r.from_locus['concept'], 50)} → {trim(r.to_locus['concept'], 60)}"
        f"  [{r.strategy}; {', '.join(r.themes[:3])}]"
        + (f"\n      ✶ crystal ({r.crystal['status']}): {trim(r.crystal['insight'], 100)}" if r.crystal else "")
        for r in report.steps
    ]
    d = report.as_dict()
    lines.append(
        f"session {d['session_id']}: {d['steps_completed']} steps ({d['total_steps']} in all), "
        f"{d['crystals_formed']} crystals, {d['cost_cents']:.2f} cents; stopped: {d['stopped_reason']}; "
        f"status {d['status']}"
    )
    return "\n".join(lines)


PAGING = (
    click.option(
        "--limit", type=click.IntRange(1, MAX_PAGE), default=20, show_default=True, help="At most this many rows."
    ),
    click.option(
        "--offset",
        type=click.IntRange(0),
        default=0,
        show_default=True,
        help="Skip this many rows first (the next page: the offset printed last).",
    ),
)


def paged(fn: Any) -> Any:
    for option in reversed(PAGING):
        fn = option(fn)
    return fn


def _more(offset: int, shown: int, total: int, next_offset: int | None, what: str) -> str:
    if not shown:
        return f"no {what}" + (f" past offset {offset} ({total} in all)" if total else "")
    return f"{what} {offset + 1}-{offset + shown} of {total}" + (
        f"; next page: --offset {next_offset}" if next_offset is not None else ""
    )
