"""``AnthropicLLM``: Claude through the official SDK, with validated structured output.

Structured output uses the API's JSON outputs: every request carries
``output_config.format`` with the prompt's output schema (put in the subset the API accepts
by the SDK's ``transform_schema``), and the reply's text blocks are that JSON. Pydantic still
validates it (the subset drops constraints such as min/max), with one repair re-ask.
``run_tools`` offers graphmind tools (named Cypher queries) with the default ``auto`` tool
choice in the same requests and runs the model's calls until it answers in JSON.

Nothing here forces a tool, prefills, or sends sampling or thinking settings: current models
(Claude Sonnet 5.5) reject them with HTTP 400 and think adaptively by default, so replies may
begin with ``thinking`` blocks, which go back to the API unchanged. The SDK does the retries
and timeouts; its errors are mapped once, here, to graphmind's. Every HTTP reply records a
``Usage``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from time import perf_counter
from typing import Any, cast

import anthropic
import pydantic
from anthropic import transform_schema

from graphmind.errors import LLMOutputError, ProviderAuthError, ProviderError, ProviderUnavailableError
from graphmind.llm.base import I, O, Prompt, Tool, ToolCall, ToolRun, Usage, UsageLog, cost_cents

log = logging.getLogger(__name__)

PROVIDER = "anthropic"
# Adaptive thinking spends output tokens before the answer, so leave it room; 16,000 also
# stays under the SDK's limit for a non-streaming request (about 10 minutes of output).
DEFAULT_MAX_TOKENS = 16_000
# System prompts at least this long are marked for prompt caching (shorter ones are below
# the API's minimum cacheable prefix and would only cost the cache-write premium).
CACHE_MIN_CHARS = 4_000
_RETRIED_STATUSES = (408, 409, 429)  # and every 5xx: what the SDK retries
_THINKING_TYPES = ("thinking", "redacted_thinking")
_TRUNCATED = ("max_tokens", "model_context_window_exceeded")  # stop reasons of an unfinished reply

Message = dict[str, Any]
Block = dict[str, Any]


@dataclass(frozen=True)
class _Turn:
    """One reply: its content as request blocks (``None``: the body was unreadable) and why it stopped."""

    content: tuple[Block, ...] | None
    stop_reason: str | None = None
    refusal: str = ""  # the API's explanation of a refusal, when it gives one

    @property
    def tool_uses(self) -> list[Block]:
        return [b for b in self.content or () if b["type"] == "tool_use"]

    @property
    def text(self) -> str:
        """The answer: every text block, in order (thinking blocks are not part of it)."""
        return "".join(b["text"] for b in self.content or () if b["type"] == "text")

    @property
    def says_something(self) -> bool:
        """Whether the reply holds more than thinking, so it can stand as an assistant turn."""
        return any(b["type"] not in _THINKING_TYPES for b in self.content or ())


class AnthropicLLM:
    """Claude behind the ``LLM`` protocol; receives a ready ``anthropic.Anthropic`` client."""

    provider = PROVIDER

    def __init__(
        self,
        client: anthropic.Anthropic,
        *,
        model: str,
        prices: Mapping[str, tuple[float, float]],
        max_tokens: int = DEFAULT_MAX_TOKENS,
    ):
        self._client = client
        self.model = model
        self._prices = prices
        self.max_tokens = max_tokens
        self.usage = UsageLog()

    @property
    def client(self) -> anthropic.Anthropic:
        return self._client

    def sibling(self, model: str, *, max_tokens: int | None = None) -> AnthropicLLM:
        """Another model on the same SDK client, recording into the same ``usage`` (wander's cheap
        and strong models: one client per mind, one usage record)."""
        twin = AnthropicLLM(
            self._client,
            model=model,
            prices=self._prices,
            max_tokens=self.max_tokens if max_tokens is None else max_tokens,
        )
        twin.usage = self.usage
        return twin

    def close(self) -> None:
        """Close the SDK client (its connection pool); every sibling shares it."""
        self._client.close()

    @property
    def prices(self) -> Mapping[str, tuple[float, float]]:
        return self._prices

    def generate(self, prompt: Prompt[I, O], inputs: I) -> O:
        """The prompt's output for ``inputs`` as JSON in the output schema; one repair re-ask."""
        messages: list[Message] = [_user(prompt.render(inputs))]
        turn = self._call(prompt, messages)
        output, problem = parse_output(prompt.output_type, turn, prompt.text_field)
        if output is None:
            messages = _repair(messages, turn, problem)
            output, problem = parse_output(prompt.output_type, self._call(prompt, messages), prompt.text_field)
        if output is None:
            raise _invalid_twice(prompt, problem)
        return output

    def generate_many(
        self,
        prompt: Prompt[I, O],
        inputs: Sequence[I],
        *,
        poll_s: float = 30.0,
        timeout_s: float = 86_400.0,
        on_wait: Callable[[], None] | None = None,
    ) -> list[O | ProviderError]:
        """``generate`` for each input through one Message Batch, at half price (``anthropic_batch``)."""
        from graphmind.llm import anthropic_batch  # it builds on this module

        return anthropic_batch.generate_many(self, prompt, inputs, poll_s=poll_s, timeout_s=timeout_s, on_wait=on_wait)

    def run_tools(self, prompt: Prompt[I, O], inputs: I, tools: Sequence[Tool], *, max_turns: int = 8) -> ToolRun[O]:
        """Run the model's tool calls for at most ``max_turns`` replies, then take its JSON answer."""
        by_name = _tools_by_name(tools)
        specs = [tool_spec(t) for t in tools]
        messages: list[Message] = [_user(prompt.render(inputs))]
        calls: list[ToolCall] = []
        repaired = False
        for _ in range(max_turns):
            turn = self._call(prompt, messages, specs)
            if turn.tool_uses:
                messages += [_assistant(turn), _user(_run_calls(turn, by_name, calls))]
                continue
            output, problem = parse_output(prompt.output_type, turn, prompt.text_field)
            if output is not None:
                return ToolRun(output, tuple(calls))
            if repaired:
                raise _invalid_twice(prompt, problem)
            messages = _repair(messages, turn, problem)
            repaired = True
        raise LLMOutputError(
            f"Anthropic gave no valid output for prompt {prompt.key} within {max_turns} turns.", provider=PROVIDER
        )

    def count_tokens(self, text: str) -> int:
        """Claude's count of ``text`` as one user message (the Messages API's token counter)."""
        try:
            return int(
                self._client.messages.count_tokens(model=self.model, messages=[cast(Any, _user(text))]).input_tokens
            )
        except anthropic.APIError as exc:
            raise provider_error(exc, retries=self._client.max_retries) from exc

    def _call(
        self, prompt: Prompt[Any, Any], messages: list[Message], tools: list[dict[str, Any]] | None = None
    ) -> _Turn:
        """One ``messages.create`` (the SDK retries inside it); records its usage."""
        offered: dict[str, Any] = {"tools": tools} if tools else {}
        started = perf_counter()
        try:
            reply = self._client.messages.create(
                model=self.model,
                max_tokens=self.max_tokens,
                system=cast(Any, system_param(prompt.system)),
                messages=cast(Any, messages),  # our plain dicts are the SDK's TypedDicts
                **_format(prompt),
                **offered,
            )
        except json.JSONDecodeError:  # a 200 whose body is not JSON: an unreadable reply
            self.record_usage(prompt, None, started)
            return _Turn(None)
        except anthropic.APIError as exc:
            log.info(
                "%s on %s failed after %.0f ms: %s", prompt.key, self.model, (perf_counter() - started) * 1000, exc
            )
            raise provider_error(exc, retries=self._client.max_retries) from exc
        self.record_usage(prompt, reply.usage, started)
        turn = turn_of(reply)
        tokens, took_ms = _tokens(reply.usage), (perf_counter() - started) * 1000
        log.debug(
            "%s on %s: %s, %d tokens in, %d out, %.0f ms",
            *(prompt.key, self.model, turn.stop_reason, tokens["input_tokens"], tokens["output_tokens"], took_ms),
        )
        return turn

    def record_usage(self, prompt: Prompt[Any, Any], usage: Any, started: float, *, price_factor: float = 1.0) -> None:
        """One ``Usage`` for a reply (``price_factor``: 0.5 for a Message Batch's replies)."""
        tokens = _tokens(usage)
        self.usage.add(
            Usage(
                provider=PROVIDER,
                model=self.model,
                prompt=prompt.key,
                **tokens,
                cost_cents=price_factor
                * cost_cents(
                    self._prices,
                    self.model,
                    tokens["input_tokens"],
                    tokens["output_tokens"],
                    cache_read_tokens=tokens["cache_read_tokens"],
                    cache_write_tokens=tokens["cache_write_tokens"],
                ),
                latency_ms=(perf_counter() - started) * 1000,
            )
        )


def turn_of(message: Any) -> _Turn:
    """A ``Message`` (a reply, or a batch's result) as a turn: its blocks, stop reason and refusal."""
    details = getattr(message, "stop_details", None)
    refusal = (details.explanation or "") if details else ""
    return _Turn(tuple(block_param(b) for b in message.content), message.stop_reason, refusal)


def output_config(prompt: Prompt[Any, Any]) -> dict[str, Any]:
    """``output_config``: the prompt's output schema as a JSON outputs format."""
    schema = transform_schema(prompt.output_type.model_json_schema())
    return {"format": {"type": "json_schema", "schema": schema}}


def _format(prompt: Prompt[Any, Any]) -> dict[str, Any]:
    """``output_config`` as a keyword argument, or nothing for a prompt answered in prose
    (``anthropic_batch`` does the same)."""
    return {} if prompt.text_field else {"output_config": output_config(prompt)}


def tool_spec(tool: Tool) -> dict[str, Any]:
    return {"name": tool.name, "description": tool.description, "input_schema": tool.input_type.model_json_schema()}


def system_param(system: str) -> str | list[dict[str, Any]]:
    """The system prompt; a long one becomes a text block marked for prompt caching."""
    if len(system) < CACHE_MIN_CHARS:
        return system
    return [{"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}]


def provider_error(exc: anthropic.APIError, *, retries: int) -> ProviderError | ProviderAuthError:
    """The one sentence a failed SDK call becomes (after the SDK's own retries)."""
    if isinstance(exc, anthropic.AuthenticationError | anthropic.PermissionDeniedError):
        return ProviderAuthError(
            f"Anthropic refused the API key (HTTP {exc.status_code}); check ANTHROPIC_API_KEY.", provider=PROVIDER
        )
    if isinstance(exc, anthropic.APIStatusError):
        status = exc.status_code
        detail = f": {exc.api_message}" if exc.api_message else ""
        if status in _RETRIED_STATUSES or status >= 500:
            return ProviderUnavailableError(
                f"Anthropic answered HTTP {status}{detail} on all {retries + 1} attempts; try again later.",
                provider=PROVIDER,
            )
        return ProviderError(f"Anthropic rejected the request (HTTP {status}){detail}.", provider=PROVIDER)
    if isinstance(exc, anthropic.APITimeoutError):
        return ProviderUnavailableError(
            f"Anthropic did not answer in time on all {retries + 1} attempts (GRAPHMIND_LLM_TIMEOUT).",
            provider=PROVIDER,
        )
    if isinstance(exc, anthropic.APIConnectionError):
        return ProviderUnavailableError(
            f"Anthropic could not be reached at {exc.request.url.host} on all {retries + 1} attempts.",
            provider=PROVIDER,
        )
    return ProviderError(f"Anthropic's reply could not be read ({exc.message}).", provider=PROVIDER)


def parse_output(model: type[O], turn: _Turn, text_field: str | None = None) -> tuple[O | None, str]:
    """The validated JSON answer of a reply (with ``text_field``: its text as that field), or
    ``None`` and what was wrong with it."""
    if turn.content is None:
        return None, "the reply body was not valid JSON"
    if turn.stop_reason == "refusal":
        return None, f"the model refused{f' ({turn.refusal})' if turn.refusal else ''}"
    if turn.stop_reason in _TRUNCATED:
        return None, f"the reply was cut off ({turn.stop_reason})"
    if not turn.text.strip():
        return None, "the reply was empty"
    try:
        if text_field:
            return model.model_validate({text_field: turn.text}), ""
        return model.model_validate_json(turn.text), ""
    except pydantic.ValidationError as exc:
        return None, _problem(exc)


def _problem(exc: pydantic.ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, e['loc'])) or 'output'}: {e['msg']}" for e in exc.errors(include_url=False))


def _repair(messages: list[Message], turn: _Turn, problem: str) -> list[Message]:
    """The conversation that re-asks after an unusable reply, telling the model what was wrong.

    A reply with nothing but thinking (or nothing at all) is not sent back: the ask joins the
    last user turn, so turns still alternate. A refusal is dropped rather than answered: the
    API docs say a conversation that still holds it keeps being refused, so the re-ask resends
    the context as it was.
    """
    if turn.stop_reason == "refusal":
        return messages
    ask = f"Your reply was invalid: {problem}. Answer again with only a JSON object that fits the output schema."
    if turn.says_something:
        return [*messages, _assistant(turn), _user(ask)]
    *earlier, last = messages
    return [*earlier, _user(_as_blocks(last["content"]) + [{"type": "text", "text": ask}])]


def _as_blocks(content: str | list[Block]) -> list[Block]:
    return [{"type": "text", "text": content}] if isinstance(content, str) else list(content)


def _invalid_twice(prompt: Prompt[Any, Any], problem: str) -> LLMOutputError:
    return LLMOutputError(
        f"Anthropic's output for prompt {prompt.key} failed validation twice ({' '.join(problem.split())}).",
        provider=PROVIDER,
    )


def _run_calls(turn: _Turn, tools: dict[str, Tool], calls: list[ToolCall]) -> list[Block]:
    """Run the turn's tool calls; each gets a ``tool_result`` (an error if unknown or invalid)."""
    results = []
    for block in turn.tool_uses:
        tool = tools.get(block["name"])
        if tool is None:
            results.append(_result(block["id"], f"There is no tool named {block['name']!r}.", error=True))
        else:
            results.append(_run_one(tool, block, calls))
    return results


def _run_one(tool: Tool, block: Block, calls: list[ToolCall]) -> Block:
    try:
        args = tool.input_type.model_validate(block["input"])
    except pydantic.ValidationError as exc:
        return _result(block["id"], f"Invalid input for {tool.name}: {_problem(exc)}.", error=True)
    output = tool.call(args)
    calls.append(ToolCall(tool.name, args.model_dump(mode="json"), output))
    return _result(block["id"], json.dumps(output, default=str, ensure_ascii=False))


def _tools_by_name(tools: Sequence[Tool]) -> dict[str, Tool]:
    by_name = {t.name: t for t in tools}
    if len(by_name) != len(tools):
        raise ValueError(f"tool names must be unique: {[t.name for t in tools]}")
    return by_name


def _tokens(usage: Any) -> dict[str, int]:
    if usage is None:
        return {"input_tokens": 0, "output_tokens": 0, "cache_read_tokens": 0, "cache_write_tokens": 0}
    return {
        "input_tokens": usage.input_tokens or 0,
        "output_tokens": usage.output_tokens or 0,
        "cache_read_tokens": usage.cache_read_input_tokens or 0,
        "cache_write_tokens": usage.cache_creation_input_tokens or 0,
    }


def block_param(block: Any) -> Block:
    """A reply block as a request block; thinking blocks (and any other kind) exactly as received."""
    if block.type == "text":
        return {"type": "text", "text": block.text}
    if block.type == "tool_use":
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
    return block.to_dict(mode="json")


def _assistant(turn: _Turn) -> Message:
    """The reply as an assistant turn, unchanged: thinking blocks stay, in their place."""
    return {"role": "assistant", "content": list(turn.content or ())}


def _user(content: str | list[Block]) -> Message:
    return {"role": "user", "content": content}


def _result(tool_use_id: str, content: str, *, error: bool = False) -> Block:
    block = {"type": "tool_result", "tool_use_id": tool_use_id, "content": content}
    return {**block, "is_error": True} if error else block
