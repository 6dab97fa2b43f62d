"""Record a provider's calls to a JSON cassette, and replay them offline.

``RecordingLLM(inner, path)`` passes each call to ``inner`` and rewrites the cassette
atomically (temp file + rename) after every successful call; a call that fails is not
recorded. ``ReplayLLM(path)`` answers from the cassette by (call kind, prompt key, hash of the
canonical JSON of the inputs); identical calls replay in the order they were recorded.

Replay semantics: ``run_tools`` returns the recorded output and the recorded tool calls
*without running the tools* (the graph is not touched). Each replayed call adds the recorded
usage records with ``provider="replay"``, the recorded model and tokens, cost 0 and latency 0.

Cassette: ``{"version": 1, "calls": [{"kind", "prompt", "inputs_sha256", "inputs", "output",
"tool_calls": [{"tool", "input", "output"}], "usage": [{"model", "input_tokens", ...}]}]}``.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pydantic

from graphmind.errors import ConfigError, LLMOutputError, NotFoundError, ProviderError
from graphmind.llm.base import LLM, I, O, Prompt, Tool, ToolCall, ToolRun, Usage, UsageLog
from graphmind.text import approximate_tokens

CASSETTE_VERSION = 1
_TOKEN_FIELDS = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens")

Key = tuple[str, str, str]


def inputs_hash(inputs: pydantic.BaseModel) -> str:
    """SHA-256 of the inputs' canonical JSON (sorted keys, no spaces)."""
    canonical = json.dumps(inputs.model_dump(mode="json"), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


class RecordingLLM:
    """Wraps a provider and records each successful call to a cassette."""

    def __init__(self, inner: LLM, path: Path):
        self._inner = inner
        self.path = Path(path)
        self._calls: list[dict[str, Any]] = []

    @property
    def provider(self) -> str:
        return self._inner.provider

    @property
    def usage(self) -> UsageLog:
        return self._inner.usage

    def generate(self, prompt: Prompt[I, O], inputs: I) -> O:
        first = self.usage.calls
        output = self._inner.generate(prompt, inputs)
        self._record("generate", prompt, inputs, output, (), first)
        return output

    def run_tools(self, prompt: Prompt[I, O], inputs: I, tools: Sequence[Tool], *, max_turns: int = 8) -> ToolRun[O]:
        first = self.usage.calls
        run = self._inner.run_tools(prompt, inputs, tools, max_turns=max_turns)
        self._record("run_tools", prompt, inputs, run.output, run.calls, first)
        return run

    def count_tokens(self, text: str) -> int:
        """The wrapped provider's count (not recorded: replay counts with the local estimate)."""
        return self._inner.count_tokens(text)

    def close(self) -> None:
        """Write the cassette (also written after every call) and close the recorded provider."""
        self._write()
        if hasattr(self._inner, "close"):
            self._inner.close()

    def _record(
        self,
        kind: str,
        prompt: Prompt[Any, Any],
        inputs: pydantic.BaseModel,
        output: pydantic.BaseModel,
        calls: Sequence[ToolCall],
        first_usage: int,
    ) -> None:
        self._calls.append(
            {
                "kind": kind,
                "prompt": prompt.key,
                "inputs_sha256": inputs_hash(inputs),
                "inputs": inputs.model_dump(mode="json"),
                "output": output.model_dump(mode="json"),
                "tool_calls": [{"tool": c.tool, "input": c.input, "output": c.output} for c in calls],
                "usage": [_usage_json(u) for u in self.usage.records[first_usage:]],
            }
        )
        self._write()

    def _write(self) -> None:
        text = json.dumps(
            {"version": CASSETTE_VERSION, "calls": self._calls}, indent=1, ensure_ascii=False, default=str
        )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text + "\n")
            os.replace(tmp, self.path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)


class ReplayLLM:
    """Answers from a cassette, offline; the cassette is read on the first call."""

    provider = "replay"

    def __init__(self, path: Path):
        self.path = Path(path)
        self.usage = UsageLog()
        self._queues: dict[Key, list[dict[str, Any]]] | None = None

    def generate(self, prompt: Prompt[I, O], inputs: I) -> O:
        call = self._next("generate", prompt, inputs)
        return self._output(prompt, call)

    def run_tools(self, prompt: Prompt[I, O], inputs: I, tools: Sequence[Tool], *, max_turns: int = 8) -> ToolRun[O]:
        """The recorded output and tool calls; the tools themselves are not run."""
        call = self._next("run_tools", prompt, inputs)
        calls = tuple(ToolCall(c["tool"], c["input"], c["output"]) for c in call["tool_calls"])
        return ToolRun(self._output(prompt, call), calls)

    def count_tokens(self, text: str) -> int:
        return approximate_tokens(text)

    def _next(self, kind: str, prompt: Prompt[Any, Any], inputs: pydantic.BaseModel) -> dict[str, Any]:
        queue = self._load().get((kind, prompt.key, inputs_hash(inputs)))
        if not queue:
            raise ProviderError(
                f"cassette {self.path} has no recorded {kind} call for prompt {prompt.key} with these "
                "inputs; re-record with GRAPHMIND_LLM=record.",
                provider=self.provider,
            )
        call = queue.pop(0)
        for record in call["usage"] or [{}]:
            self.usage.add(
                Usage(
                    provider=self.provider,
                    model=record.get("model", "replay"),
                    prompt=prompt.key,
                    **{f: int(record.get(f, 0)) for f in _TOKEN_FIELDS},
                )
            )
        return call

    def _output(self, prompt: Prompt[Any, O], call: dict[str, Any]) -> O:
        try:
            return prompt.output_type.model_validate(call["output"])
        except pydantic.ValidationError:
            raise LLMOutputError(
                f"cassette {self.path} holds an output for prompt {prompt.key} that no longer fits "
                "its output type; re-record with GRAPHMIND_LLM=record.",
                provider=self.provider,
            ) from None

    def _load(self) -> dict[Key, list[dict[str, Any]]]:
        if self._queues is None:
            self._queues = defaultdict(list)
            for call in _read_cassette(self.path):
                self._queues[(call["kind"], call["prompt"], call["inputs_sha256"])].append(call)
        return self._queues


def _read_cassette(path: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise NotFoundError(f"LLM cassette {path} does not exist; record one with GRAPHMIND_LLM=record.") from None
    except (ValueError, OSError) as exc:
        raise ConfigError(f"LLM cassette {path} cannot be read ({exc}).") from None
    if not isinstance(data, dict) or data.get("version") != CASSETTE_VERSION:
        raise ConfigError(f"{path} is not a version {CASSETTE_VERSION} graphmind LLM cassette.")
    return list(data.get("calls", []))


def _usage_json(usage: Usage) -> dict[str, Any]:
    return {"provider": usage.provider, "model": usage.model, **{f: getattr(usage, f) for f in _TOKEN_FIELDS}}
