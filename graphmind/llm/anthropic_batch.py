"""Message Batches for ``AnthropicLLM``: one prompt over many inputs in one batch, at half price.

The dream's compression makes one independent call per cluster, which is what the Message
Batches API is for: the batch costs 50% of the same calls made one by one, and its results
take minutes (up to 24 hours). A night cycle can wait; an interactive run should not, so it is
opt-in (``graphmind dream --batch``). Each request is the one ``generate`` would send. A reply
that fails validation gets ``generate``'s treatment directly (a normal call, one repair
re-ask); a request the batch could not answer comes back as a ``ProviderError`` in its place,
so the caller can degrade that item alone.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from time import perf_counter
from typing import Any, cast

import anthropic

from graphmind.errors import ProviderError, ProviderUnavailableError
from graphmind.llm.anthropic import (
    PROVIDER,
    AnthropicLLM,
    output_config,
    parse_output,
    provider_error,
    system_param,
    turn_of,
)
from graphmind.llm.base import I, O, Prompt

BATCH_PRICE = 0.5  # batch requests cost half the standard price (input and output tokens)


def generate_many(
    llm: AnthropicLLM,
    prompt: Prompt[I, O],
    inputs: Sequence[I],
    *,
    poll_s: float,
    timeout_s: float,
    on_wait: Callable[[], None] | None = None,
) -> list[O | ProviderError]:
    """``prompt``'s output for each input, in order, from one Message Batch.

    Polls every ``poll_s`` seconds, calling ``on_wait`` each time (a dream renews its lease);
    past ``timeout_s`` the batch is canceled and the call fails with ProviderUnavailableError.
    """
    batches = llm.client.messages.batches
    started = perf_counter()
    try:
        batch = batches.create(
            requests=[
                {"custom_id": f"r{i}", "params": cast(Any, request_params(llm, prompt, x))}
                for i, x in enumerate(inputs)
            ]
        )
        while batch.processing_status != "ended":
            if perf_counter() - started > timeout_s:
                batches.cancel(batch.id)
                raise ProviderUnavailableError(
                    f"Anthropic's message batch {batch.id} did not end within {timeout_s:g} s; it was canceled.",
                    provider=PROVIDER,
                )
            if on_wait:
                on_wait()
            time.sleep(poll_s)
            batch = batches.retrieve(batch.id)
        results = {r.custom_id: r.result for r in batches.results(batch.id)}
    except anthropic.APIError as exc:
        raise provider_error(exc, retries=llm.client.max_retries) from exc
    return [_output(llm, prompt, x, results.get(f"r{i}"), started) for i, x in enumerate(inputs)]


def request_params(llm: AnthropicLLM, prompt: Prompt[I, O], inputs: I) -> dict[str, Any]:
    """The body ``generate`` would send for ``inputs``."""
    return {
        "model": llm.model,
        "max_tokens": llm.max_tokens,
        "system": system_param(prompt.system),
        "messages": [{"role": "user", "content": prompt.render(inputs)}],
        **({} if prompt.text_field else {"output_config": output_config(prompt)}),
    }


def _output(llm: AnthropicLLM, prompt: Prompt[I, O], inputs: I, result: Any, started: float) -> O | ProviderError:
    if result is None or result.type != "succeeded":
        kind = "no result" if result is None else result.type
        return ProviderError(
            f"Anthropic's message batch gave {kind} for one request of prompt {prompt.key}.", provider=PROVIDER
        )
    llm.record_usage(prompt, result.message.usage, started, price_factor=BATCH_PRICE)
    output, _ = parse_output(prompt.output_type, turn_of(result.message), prompt.text_field)
    if output is not None:
        return output
    try:
        return llm.generate(prompt, inputs)  # the repair path, as one normal call
    except ProviderError as exc:
        return exc
