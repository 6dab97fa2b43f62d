"""``graphmind ruminate``: gap-driven rumination over one mind, ending in a Context Object."""

from __future__ import annotations

import click

from graphmind.cli.options import JSON, MIND
from graphmind.cli.render import emit
from graphmind.mind import Mind
from graphmind.ruminate import RuminationResult


@click.command()
@click.argument("text")
@MIND
@click.option("--sender", default=None, help="Who the stimulus comes from (a partner's name).")
@JSON
def ruminate(text: str, mind: str, sender: str | None, as_json: bool) -> None:
    """Ruminate on TEXT in a mind and print the 7-section Context Object for the Driver."""
    with Mind.open(mind) as m:
        result = m.ruminate(text, sender=sender)
    emit(result.as_dict(), as_json, _text(result))


def _text(result: RuminationResult) -> str:
    validation = result.context.validation
    lines = [
        result.context_markdown,
        "---",
        f"rumination {result.run_id}: {len(result.steps)} steps, "
        f"stopped: {result.stopped_reason}, final gap {result.final_gap_score:.2f}",
    ]
    lines += [step.trace_line() for step in result.steps]
    fired = ", ".join(f"{name} {count}" for name, count in result.guard_rails.items() if count)
    lines.append(f"guard rails: {fired or 'none fired'}")
    lines.append(
        f"context: {result.context.token_count} tokens ({validation.token_counter}), "
        f"composed by {validation.composer}, {validation.atoms_checked} facts checked"
        + (", stimulus truncated" if result.truncated else "")
    )
    lines.append(f"LLM: {result.llm['provider']}, {result.llm['calls']} calls, {result.llm['cost_cents']:.4f} cents")
    return "\n".join(lines)
