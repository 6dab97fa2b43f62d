"""``graphmind llm check``: one tiny prompt through the configured LLM provider."""

from __future__ import annotations

import click

from graphmind.app import make_llm
from graphmind.cli.options import JSON
from graphmind.cli.render import emit
from graphmind.config import Settings


@click.group()
def llm() -> None:
    """The LLM provider (GRAPHMIND_LLM: auto, offline, anthropic, replay, record)."""


@llm.command()
@JSON
def check(as_json: bool) -> None:
    """Send the llm.check prompt and report provider, model, tokens, cost and latency."""
    from graphmind.prompts.llm import CHECK, CheckInput

    provider = make_llm(Settings.from_env())
    inputs = CheckInput()
    output = provider.generate(CHECK, inputs)
    close = getattr(provider, "close", None)  # a recording provider writes its cassette
    if close is not None:
        close()
    usage = provider.usage
    model = usage.records[-1].model if usage.records else ""
    payload = {
        "provider": provider.provider,
        "model": model,
        "ok": output.echo == inputs.word,
        "calls": usage.calls,
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "cost_cents": round(usage.cost_cents, 4),
        "latency_ms": round(sum(r.latency_ms for r in usage.records), 1),
    }
    verdict = "ok" if payload["ok"] else "answered, but not with the word asked for"
    emit(
        payload,
        as_json,
        f"{payload['provider']} ({model}): {verdict}"
        f"; {usage.input_tokens} in / {usage.output_tokens} out tokens, "
        f"{payload['cost_cents']} cents, {payload['latency_ms']} ms",
    )
