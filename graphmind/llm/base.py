"""The LLM protocol, prompts, tools and usage records shared by every provider.

A ``Prompt`` knows its name (``"<engine>.<purpose>"``), version, input and output types and
its text; engines call ``llm.generate(prompt, inputs)`` and get a validated output model back.
``run_tools`` lets the model call graphmind functions (named Cypher queries) before answering.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel

from graphmind.errors import ProviderError

I = TypeVar("I", bound=BaseModel)
O = TypeVar("O", bound=BaseModel)


@dataclass(frozen=True)
class Prompt(Generic[I, O]):
    """A named, versioned prompt that knows its input and output types.

    ``system`` is the (possibly long, cacheable) system prompt; ``render`` turns validated
    inputs into the user message. The text lives in ``graphmind/prompts/``, never in engines.
    """

    name: str
    version: int
    input_type: type[I]
    output_type: type[O]
    system: str
    render: Callable[[I], str]
    text_field: str | None = None
    """Set for a prompt answered in prose rather than JSON (``wander.dwell_rlm``: ```repl blocks
    around words): no output schema is sent, and the reply's text becomes this field of the output."""

    @property
    def key(self) -> str:
        """``name@version``: what usage records and cassettes are keyed by."""
        return f"{self.name}@{self.version}"


@dataclass(frozen=True)
class Tool:
    """A graphmind function the model may call during ``run_tools``.

    ``call`` receives the validated ``input_type`` and returns JSON-serialisable data.
    """

    name: str
    description: str
    input_type: type[BaseModel]
    call: Callable[[Any], Any]


@dataclass(frozen=True)
class ToolCall:
    """One tool call the model made, with what it returned."""

    tool: str
    input: dict[str, Any]
    output: Any


@dataclass(frozen=True)
class ToolRun(Generic[O]):
    """The validated final output of a tool-use loop and the calls that led to it."""

    output: O
    calls: tuple[ToolCall, ...] = ()


@dataclass(frozen=True)
class Usage:
    """What one LLM call cost: recorded for every call, by every provider."""

    provider: str
    model: str
    prompt: str
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    cost_cents: float = 0.0
    latency_ms: float = 0.0


@dataclass
class UsageLog:
    """The usage records of one provider instance, in call order."""

    records: list[Usage] = field(default_factory=list)

    def add(self, usage: Usage) -> None:
        self.records.append(usage)

    @property
    def calls(self) -> int:
        return len(self.records)

    @property
    def cost_cents(self) -> float:
        return sum(r.cost_cents for r in self.records)

    @property
    def input_tokens(self) -> int:
        return sum(r.input_tokens for r in self.records)

    @property
    def output_tokens(self) -> int:
        return sum(r.output_tokens for r in self.records)


# Anthropic bills cache writes at 1.25x and cache reads at 0.1x the input price.
CACHE_WRITE_FACTOR = 1.25
CACHE_READ_FACTOR = 0.1


def cost_cents(
    prices: dict[str, tuple[float, float]] | Any,
    model: str,
    input_tokens: int,
    output_tokens: int,
    *,
    cache_read_tokens: int = 0,
    cache_write_tokens: int = 0,
) -> float:
    """Cost in US cents from a price table of cents per million (input, output) tokens.

    Cached input tokens are priced from the input price (``CACHE_*_FACTOR``).
    A model missing from the table costs 0: the call is still recorded with its tokens.
    """
    input_price, output_price = prices.get(model, (0.0, 0.0))
    billed_input = input_tokens + cache_write_tokens * CACHE_WRITE_FACTOR + cache_read_tokens * CACHE_READ_FACTOR
    return (billed_input * input_price + output_tokens * output_price) / 1_000_000


@runtime_checkable
class LLM(Protocol):
    """What every provider (Anthropic, offline, replay) offers the engines."""

    @property
    def provider(self) -> str: ...

    @property
    def usage(self) -> UsageLog: ...

    def generate(self, prompt: Prompt[I, O], inputs: I) -> O:
        """The prompt's output model for ``inputs``, validated (at most one repair re-ask)."""
        ...

    def run_tools(self, prompt: Prompt[I, O], inputs: I, tools: Sequence[Tool], *, max_turns: int = 8) -> ToolRun[O]:
        """Let the model call ``tools`` (at most ``max_turns`` rounds), then return its output."""
        ...

    def count_tokens(self, text: str) -> int:
        """How many input tokens ``text`` costs as one user message of this provider's model
        (offline and replay: graphmind's local estimate, ``graphmind.text.approximate_tokens``)."""
        ...


@runtime_checkable
class BatchLLM(Protocol):
    """A provider that can answer one prompt over many inputs as one discounted batch."""

    def generate_many(
        self,
        prompt: Prompt[I, O],
        inputs: Sequence[I],
        *,
        poll_s: float = 30.0,
        timeout_s: float = 86_400.0,
        on_wait: Callable[[], None] | None = None,
    ) -> list[O | ProviderError]:
        """``generate`` for each input, in order; an item the batch could not answer is its error."""
        ...
