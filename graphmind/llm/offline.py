"""The offline LLM: the default provider when no ``ANTHROPIC_API_KEY`` is set.

It is deterministic, grounded and honest. For each prompt name it has a *behaviour*, a pure
function ``(inputs, tools) -> output model`` that builds its output only from its inputs
(extractive summaries ranked by term overlap, templates filled with input values,
rule-based signals); a prompt without a behaviour raises ``ProviderError``. Each engine owns
its behaviours (``graphmind/<engine>/offline.py``: ``BEHAVIOURS`` and ``TEMPLATE_WORDS``); the
composition root (``graphmind.app``) registers them here, so this package imports no engine.

Registering a behaviour for a new prompt (e.g. ``llm.check``)::

    from graphmind.llm.offline import register_behaviour

    @register_behaviour("llm.check")
    def _check(inputs: CheckInput, tools) -> CheckOutput:
        return CheckOutput(reply=inputs.text)

``register_behaviour(name, fn)`` also works as a plain call. ``OfflineLLM(behaviours={...})``
adds behaviours to one instance only (handy in tests). Every word a behaviour writes must
come from its inputs or from the fixed template words registered with it (``template_words()``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError

from graphmind.errors import LLMOutputError, ProviderError, ValidationError
from graphmind.llm.base import Prompt, Tool, ToolCall, ToolRun, Usage, UsageLog
from graphmind.text import approximate_tokens

PROVIDER = "offline"
MODEL = "graphmind-offline-v1"

Behaviour = Callable[[Any, Sequence[Tool]], BaseModel]
F = TypeVar("F", bound=Behaviour)

_REGISTERED: dict[str, Behaviour] = {}
_TEMPLATE_WORDS: set[str] = set()


def register_behaviour(prompt_name: str, fn: F | None = None) -> Any:
    """Give the offline LLM a behaviour for ``prompt_name`` (a call or a decorator).

    Registering a second, different function for the same name raises ``ValueError``.
    """

    def add(behaviour: F) -> F:
        existing = _REGISTERED.get(prompt_name)
        if existing is not None and existing is not behaviour:
            raise ValueError(f"an offline behaviour for {prompt_name!r} is already registered")
        _REGISTERED[prompt_name] = behaviour
        return behaviour

    return add(fn) if fn is not None else add


def register_behaviours(behaviours: Mapping[str, Behaviour], template_words: Iterable[str] = ()) -> None:
    """Register an engine's behaviours and the fixed words of its templates (idempotent)."""
    for name, fn in behaviours.items():
        register_behaviour(name, fn)
    _TEMPLATE_WORDS.update(template_words)


def behaviours() -> dict[str, Behaviour]:
    """Every behaviour the offline LLM knows (the engines' ones, registered by ``graphmind.app``)."""
    return dict(_REGISTERED)


def template_words() -> frozenset[str]:
    """The fixed vocabulary of the registered behaviours' templates: every other word an offline
    output contains comes from the prompt's inputs (tests check this)."""
    return frozenset(_TEMPLATE_WORDS)


class OfflineLLM:
    """The deterministic, grounded provider: same inputs, same output, no invented facts."""

    def __init__(self, behaviours: Mapping[str, Behaviour] | None = None):
        self._extra = dict(behaviours or {})
        self._usage = UsageLog()

    @property
    def provider(self) -> str:
        return PROVIDER

    @property
    def usage(self) -> UsageLog:
        return self._usage

    def count_tokens(self, text: str) -> int:
        return approximate_tokens(text)

    def generate(self, prompt: Prompt, inputs: Any) -> Any:
        """The prompt's output, built by its behaviour from ``inputs`` alone."""
        return self._run(prompt, inputs, ())

    def run_tools(self, prompt: Prompt, inputs: Any, tools: Sequence[Tool], *, max_turns: int = 8) -> ToolRun:
        """Let the behaviour call ``tools`` (at most ``max_turns`` calls), then answer."""
        calls: list[ToolCall] = []
        recording = tuple(_recording(tool, calls, max_turns) for tool in tools)
        output = self._run(prompt, inputs, recording)
        return ToolRun(output=output, calls=tuple(calls))

    def _run(self, prompt: Prompt, inputs: Any, tools: Sequence[Tool]) -> Any:
        behaviour = self._extra.get(prompt.name) or behaviours().get(prompt.name)
        if behaviour is None:
            raise ProviderError(
                f"the offline LLM has no behaviour for prompt {prompt.name}; set ANTHROPIC_API_KEY to use Claude",
                provider=PROVIDER,
            )
        validated = _validate_input(prompt, inputs)
        started = time.perf_counter()
        output = _validate_output(prompt, behaviour(validated, tools))
        latency_ms = (time.perf_counter() - started) * 1000
        rendered = prompt.system + "\n\n" + prompt.render(validated)
        self._usage.add(
            Usage(
                provider=PROVIDER,
                model=MODEL,
                prompt=prompt.key,
                input_tokens=approximate_tokens(rendered),
                output_tokens=approximate_tokens(output.model_dump_json()),
                cost_cents=0.0,
                latency_ms=latency_ms,
            )
        )
        return output


def _validate_input(prompt: Prompt, inputs: Any) -> BaseModel:
    if isinstance(inputs, prompt.input_type):
        return inputs
    raw = inputs.model_dump() if isinstance(inputs, BaseModel) else inputs
    try:
        return prompt.input_type.model_validate(raw)
    except PydanticValidationError as error:
        raise ValidationError(f"inputs of prompt {prompt.name} are invalid: {error}") from error


def _validate_output(prompt: Prompt, output: Any) -> BaseModel:
    """The behaviour's output as the prompt's output type (a model or its dict), else LLMOutputError."""
    if isinstance(output, prompt.output_type):
        return output
    try:
        return prompt.output_type.model_validate(output.model_dump() if isinstance(output, BaseModel) else output)
    except PydanticValidationError as error:
        raise LLMOutputError(
            f"the offline behaviour for {prompt.name} returned an invalid output: {error}", provider=PROVIDER
        ) from error


def _recording(tool: Tool, calls: list[ToolCall], max_calls: int) -> Tool:
    """``tool`` with a ``call`` that validates its input and records each call."""

    def call(arguments: Any) -> Any:
        if len(calls) >= max_calls:
            raise ProviderError(f"the offline LLM called tools more than {max_calls} times", provider=PROVIDER)
        model = arguments if isinstance(arguments, tool.input_type) else tool.input_type.model_validate(arguments)
        result = tool.call(model)
        calls.append(ToolCall(tool=tool.name, input=model.model_dump(), output=result))
        return result

    return Tool(name=tool.name, description=tool.description, input_type=tool.input_type, call=call)
