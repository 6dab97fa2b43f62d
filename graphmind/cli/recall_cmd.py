"""``graphmind recall | embed``: hybrid recall over one mind, and the embedding pass."""

from __future__ import annotations

import warnings

import click

from graphmind.cli.options import JSON, MIND
from graphmind.cli.render import emit
from graphmind.mind import Mind
from graphmind.recall import RecallResult, ReembeddedWarning, StaleEmbeddingsWarning
from graphmind.recall.identifiers import unnamed_note
from graphmind.recall.validity import parse_as_of
from graphmind.text import trim


@click.command()
@click.argument("text")
@MIND
@click.option("-k", "k", type=int, default=10, show_default=True, help="How many memories to return.")
@click.option("--label", "labels", multiple=True, help="Only memories with this label (repeatable).")
@click.option(
    "--as-of",
    "as_of",
    metavar="DATE",
    help="What held at DATE (ISO-8601): a memory counts from its valid_from (else from when it was"
    " recorded) until its invalid_at.",
)
@click.option("--full", is_flag=True, help="Print each memory's whole text (default: its first 100 characters).")
@JSON
def recall(text: str, mind: str, k: int, labels: tuple[str, ...], as_of: str | None, full: bool, as_json: bool) -> None:
    """Recall the memories of a mind that best match TEXT (vector + full-text, fused); facts
    still valid come before superseded ones."""
    when = parse_as_of(as_of)
    with Mind.open(mind, must_exist=True) as m, warnings.catch_warnings():
        # the output says both (stale, reembedded)
        warnings.simplefilter("ignore", StaleEmbeddingsWarning)
        warnings.simplefilter("ignore", ReembeddedWarning)
        result = m.recall(text, k=k, labels=list(labels) or None, as_of=when)
    emit(result.as_dict(), as_json, _recall_text(result, full=full, as_of=as_of))


@click.command()
@MIND
@click.option(
    "--pending-only",
    is_flag=True,
    help="Check only memories flagged since the last pass (what recall does), not every "
    "memory embedded by another model.",
)
@JSON
def embed(mind: str, pending_only: bool, as_json: bool) -> None:
    """Embed the memories of a mind that lack a current embedding (new or changed text or model)."""
    with Mind.open(mind, must_exist=True) as m:
        report = m.embed(full=not pending_only)
    emit(
        report.as_dict(),
        as_json,
        f"mind {mind!r}: embedded {report.embedded:,} memories with {report.model_id} "
        f"({report.checked:,} checked, {report.current:,} already current, "
        f"{report.no_text:,} without text) in {report.seconds:.1f} s",
    )


@click.command()
@click.argument("question")
@MIND
@JSON
def ask(question: str, mind: str, as_json: bool) -> None:
    """Answer QUESTION from a mind's memories (the LLM recalls through graph tools, cites ids)."""
    with Mind.open(mind, must_exist=True) as m:
        run = m.ask(question)
        usage = m.llm.usage
        provider = m.llm.provider
    payload = {
        "question": question,
        **run.output.model_dump(mode="json"),
        "tool_calls": [{"tool": c.tool, "input": c.input} for c in run.calls],
        "llm": {
            "provider": provider,
            "calls": usage.calls,
            "input_tokens": usage.input_tokens,
            "output_tokens": usage.output_tokens,
            "cost_cents": round(usage.cost_cents, 4),
        },
    }
    calls = ", ".join(f"{c.tool}({c.input})" for c in run.calls) or "none"
    emit(
        payload,
        as_json,
        f"{run.output.answer}\n\n(tools called: {calls}; LLM: {provider}, "
        f"{usage.calls} call(s), {usage.cost_cents:.4f} cents)",
    )


def _recall_text(result: RecallResult, *, full: bool = False, as_of: str | None = None) -> str:
    if not result.hits:
        when = (
            f" as of {as_of} (memories valid only later, or no longer valid then, are left out; one"
            " without --valid-from counts from its timestamp, else from when it was recorded)"
            if as_of
            else ""
        )
        return f"mind {result.mind!r}: nothing recalled for {result.query!r}{when}"
    lines = []
    if result.unnamed:
        lines.append(f"note: {unnamed_note(result.unnamed)}")
    for rank, hit in enumerate(result.hits, start=1):
        text = (hit.text or "") if full else trim(hit.text or "", 100)
        found_by = " + ".join(k for k in hit.why() if k != "outdated") or "-"
        lines.append(f"{rank:>2}. {hit.label}:{hit.id}  score {hit.score:.4f}  ({found_by})\n    {text}")
        if hit.outdated:
            lines.append(f"    outdated: {hit.outdated} (ranked after the valid memories)")
    if result.reembedded:
        lines.append(
            f"note: {result.reembedded} memories had been embedded by another model and were "
            f"embedded again with {result.model_id}"
        )
    if result.stale:
        lines.append(
            f"note: {result.stale} memories were embedded by another model and were skipped; "
            f"run 'graphmind embed --mind {result.mind}'"
        )
    return "\n".join(lines)


COMMANDS = (recall, embed, ask)
