"""``AnthropicLLM``: Claude through the official SDK, with validated structured output.

Structured output goes through a ``respond`` tool whose input schema is the prompt's output
model; ``generate`` forces that tool and validates its input with pydantic, re-asking once
with the validation error. ``run_tools`` also offers graphmind tools (named Cypher queries)
and runs the model's calls until it responds. The SDK does the retries and timeouts; its
errors are mapped once, here, to graphmind's. Every HTTP reply records a ``Usage``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from time import perf_counter
from typing import Any

import anthropic
import pydantic

from graphmind.errors import LLMOutputError, ProviderAuthError, ProviderError, ProviderUnavailableError
from graphmind.llm.base import I, O, Prompt, Tool, ToolCall, ToolRun, Usage, UsageLog, cost_cents

PROVIDER = "anthropic"
RESPOND = "respond"
DEFAULT_MAX_TOKENS = 4096
# System prompts at least this long are marked for prompt caching (shorter ones are below
# the API's minimum cacheable prefix and would only cost the cache-write premium).
CACHE_MIN_CHARS = 4_000
_RETRIED_STATUSES = (408, 409, 429)  # and every 5xx: what the SDK retries

Message = dict[str, Any]


@dataclass(frozen=True)
class _Turn:
    """What the model answered in one reply: ``None`` content means the body was unreadable."""

    content: tuple[dict[str, Any], ...] | None

    @property
    def tool_uses(self) -> list[dict[str, Any]]:
        return [b for b in self.content or () if b["type"] == "tool_use"]


class AnthropicLLM:
    """Claude behind the ``LLM`` protocol; receives a ready ``anthropic.Anthropic`` client."""

    provider = PROVIDER

    def __init__(self, client: anthropic.Anthropic, *, model: str,
                 prices: Mapping[str, tuple[float, float]], max_tokens: int = DEFAULT_MAX_TOKENS):
        self._client = client
        self.model = model
        self._prices = prices
        self._max_tokens = max_tokens
        self.usage = UsageLog()

    def generate(self, prompt: Prompt[I, O], inputs: I) -> O:
        """The prompt's output for ``inputs``, forced through ``respond``; one repair re-ask."""
        tools = [respond_spec(prompt)]
        forced = {"type": "tool", "name": RESPOND}
        messages: list[Message] = [_user(prompt.render(inputs))]
        turn = self._call(prompt, messages, tools, forced)
        output, problem = _parse_respond(prompt, turn)
        if output is None:
            messages += _repair(turn, problem)
            output, problem = _parse_respond(prompt, self._call(prompt, messages, tools, forced))
        if output is None:
            raise LLMOutputError(
                f"Anthropic's output for prompt {prompt.key} failed validation twice ({problem}).",
                provider=PROVIDER)
        return output

    def run_tools(self, prompt: Prompt[I, O], inputs: I, tools: Sequence[Tool],
                  *, max_turns: int = 8) -> ToolRun[O]:
        """Run the model's tool calls for at most ``max_turns`` replies; the last must respond."""
        by_name = _tools_by_name(tools)
        specs = [tool_spec(t) for t in tools] + [respond_spec(prompt)]
        messages: list[Message] = [_user(prompt.render(inputs))]
        calls: list[ToolCall] = []
        for turn_no in range(1, max_turns + 1):
            choice = {"type": "tool", "name": RESPOND} if turn_no == max_turns else {"type": "any"}
            turn = self._call(prompt, messages, specs, choice)
            output, problem = _parse_respond(prompt, turn)
            if output is not None:
                return ToolRun(output, tuple(calls))
            if not turn.tool_uses:
                messages += _repair(turn, problem)
                continue
            messages += [_assistant(turn), _user_blocks(_run_calls(prompt, turn, by_name, calls))]
        raise LLMOutputError(
            f"Anthropic gave no valid output for prompt {prompt.key} within {max_turns} turns.",
            provider=PROVIDER)

    def _call(self, prompt: Prompt[Any, Any], messages: list[Message], tools: list[dict[str, Any]],
              tool_choice: dict[str, Any]) -> _Turn:
        """One ``messages.create`` (the SDK retries inside it); records its usage."""
        started = perf_counter()
        try:
            reply = self._client.messages.create(
                model=self.model, max_tokens=self._max_tokens, system=system_param(prompt.system),
                messages=messages, tools=tools, tool_choice=tool_choice)
        except json.JSONDecodeError:  # a 200 whose body is not JSON: an unreadable reply
            self._record(prompt, None, started)
            return _Turn(None)
        except anthropic.APIError as exc:
            raise provider_error(exc, retries=self._client.max_retries) from exc
        self._record(prompt, reply.usage, started)
        return _Turn(tuple(_block_param(b) for b in reply.content))

    def _record(self, prompt: Prompt[Any, Any], usage: Any, started: float) -> None:
        tokens = _tokens(usage)
        self.usage.add(Usage(
            provider=PROVIDER, model=self.model, prompt=prompt.key, **tokens,
            cost_cents=cost_cents(self._prices, self.model, tokens["input_tokens"], tokens["output_tokens"],
                                  cache_read_tokens=tokens["cache_read_tokens"],
                                  cache_write_tokens=tokens["cache_write_tokens"]),
            latency_ms=(perf_counter() - started) * 1000))


def respond_spec(prompt: Prompt[Any, Any]) -> dict[str, Any]:
    """The ``respond`` tool: its input schema is the prompt's output model."""
    return {"name": RESPOND,
            "description": f"Give the final answer for {prompt.name}. Call this exactly once.",
            "input_schema": prompt.output_type.model_json_schema()}


def tool_spec(tool: Tool) -> dict[str, Any]:
    return {"name": tool.name, "description": tool.description,
            "input_schema": tool.input_type.model_json_schema()}


def system_param(system: str) -> str | list[dict[str, Any]]:
    """The system prompt; a long one becomes a text block marked for prompt caching."""
    if len(system) < CACHE_MIN_CHARS:
        return system
    return [{"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}]


def provider_error(exc: anthropic.APIError, *, retries: int) -> ProviderError | ProviderAuthError:
    """The one sentence a failed SDK call becomes (after the SDK's own retries)."""
    if isinstance(exc, anthropic.AuthenticationError | anthropic.PermissionDeniedError):
        return ProviderAuthError(
            f"Anthropic refused the API key (HTTP {exc.status_code}); check ANTHROPIC_API_KEY.")
    if isinstance(exc, anthropic.APIStatusError):
        status = exc.status_code
        detail = f": {exc.api_message}" if exc.api_message else ""
        if status in _RETRIED_STATUSES or status >= 500:
            return ProviderUnavailableError(
                f"Anthropic answered HTTP {status}{detail} on all {retries + 1} attempts; "
                "try again later.", provider=PROVIDER)
        return ProviderError(f"Anthropic rejected the request (HTTP {status}){detail}.", provider=PROVIDER)
    if isinstance(exc, anthropic.APITimeoutError):
        return ProviderUnavailableError(
            f"Anthropic did not answer in time on all {retries + 1} attempts (GRAPHMIND_LLM_TIMEOUT).",
            provider=PROVIDER)
    if isinstance(exc, anthropic.APIConnectionError):
        return ProviderUnavailableError(
            f"Anthropic could not be reached at {exc.request.url.host} on all {retries + 1} attempts.",
            provider=PROVIDER)
    return ProviderError(f"Anthropic's reply could not be read ({exc.message}).", provider=PROVIDER)


def _parse_respond(prompt: Prompt[Any, O], turn: _Turn) -> tuple[O | None, str]:
    """The validated ``respond`` input, or ``None`` and what was wrong."""
    if turn.content is None:
        return None, "the reply was not valid JSON"
    responds = [b for b in turn.tool_uses if b["name"] == RESPOND]
    if not responds:
        return None, "the reply did not call the respond tool" if turn.content else "the reply was empty"
    return _validate(prompt.output_type, responds[0]["input"])


def _validate(model: type[O], data: Any) -> tuple[O | None, str]:
    try:
        return model.model_validate(data), ""
    except pydantic.ValidationError as exc:
        return None, "; ".join(f"{'.'.join(map(str, e['loc'])) or 'input'}: {e['msg']}"
                               for e in exc.errors(include_url=False))


def _repair(turn: _Turn, problem: str) -> list[Message]:
    """The turns that tell the model what was wrong with its last reply."""
    ask = f"Your reply was invalid: {problem}. Call the respond tool with input that fits its schema."
    if not turn.tool_uses:
        said = _assistant(turn)
        return ([said] if said["content"] else []) + [_user(ask)]
    results = [_result(b["id"], ask if b["name"] == RESPOND else "Not run: answer with respond.", error=True)
               for b in turn.tool_uses]
    return [_assistant(turn), _user_blocks(results)]


def _run_calls(prompt: Prompt[Any, Any], turn: _Turn, tools: dict[str, Tool],
               calls: list[ToolCall]) -> list[dict[str, Any]]:
    """Run the turn's graphmind tool calls; each gets a ``tool_result`` (an error if invalid)."""
    results = []
    for block in turn.tool_uses:
        tool = tools.get(block["name"])
        if block["name"] == RESPOND:
            _, problem = _validate(prompt.output_type, block["input"])
            results.append(_result(block["id"], f"Invalid respond input: {problem}.", error=True))
        elif tool is None:
            results.append(_result(block["id"], f"There is no tool named {block['name']!r}.", error=True))
        else:
            results.append(_run_one(tool, block, calls))
    return results


def _run_one(tool: Tool, block: dict[str, Any], calls: list[ToolCall]) -> dict[str, Any]:
    args, problem = _validate(tool.input_type, block["input"])
    if args is None:
        return _result(block["id"], f"Invalid input for {tool.name}: {problem}.", error=True)
    output = tool.call(args)
    calls.append(ToolCall(tool.name, args.model_dump(mode="json"), output))
    return _result(block["id"], json.dumps(output, default=str, ensure_ascii=False))


def _tools_by_name(tools: Sequence[Tool]) -> dict[str, Tool]:
    by_name = {t.name: t for t in tools}
    if RESPOND in by_name or len(by_name) != len(tools):
        raise ValueError(f"tool names must be unique and not {RESPOND!r}: {[t.name for t in tools]}")
    return by_name


def _tokens(usage: Any) -> dict[str, int]:
    if usage is None:
        return {"input_tokens": 0, "output_tokens": 0, "cache_read_tokens": 0, "cache_write_tokens": 0}
    return {"input_tokens": usage.input_tokens or 0, "output_tokens": usage.output_tokens or 0,
            "cache_read_tokens": usage.cache_read_input_tokens or 0,
            "cache_write_tokens": usage.cache_creation_input_tokens or 0}


def _block_param(block: Any) -> dict[str, Any]:
    """A reply block as a request block (text and tool_use are all graphmind asks for)."""
    if block.type == "tool_use":
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
    if block.type == "text":
        return {"type": "text", "text": block.text}
    return {"type": block.type}


def _assistant(turn: _Turn) -> Message:
    blocks = [b for b in turn.content or () if b["type"] in ("text", "tool_use")]
    return {"role": "assistant", "content": blocks}


def _user(text: str) -> Message:
    return {"role": "user", "content": text}


def _user_blocks(blocks: list[dict[str, Any]]) -> Message:
    return {"role": "user", "content": blocks}


def _result(tool_use_id: str, content: str, *, error: bool = False) -> dict[str, Any]:
    block = {"type": "tool_result", "tool_use_id": tool_use_id, "content": content}
    return {**block, "is_error": True} if error else block
