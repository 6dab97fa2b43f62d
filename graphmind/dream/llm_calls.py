"""The dream's LLM calls: one at a time, side by side, or as one Message Batch; a call that
fails is done by graphmind's rules instead (the offline behaviour) and noted in ``degraded``."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from graphmind.dream.params import DreamParams
from graphmind.errors import ProviderError
from graphmind.llm import LLM, BatchLLM

LLM_WORKERS = 4
Rules = Callable[[Any, Any], Any]
"""The offline behaviour of a prompt: ``rules(inputs, tools)``."""


class DreamCalls:
    """One run's LLM calls, with its degradation notes (``degraded`` is the run's own list)."""

    def __init__(
        self,
        llm: LLM,
        params: DreamParams,
        online: bool,
        degraded: list[str],
        progress: Callable[[str], None],
        renew: Callable[[], None],
    ):
        self.llm, self.params, self.online, self.degraded = llm, params, online, degraded
        self.progress, self.renew = progress, renew

    def one(self, phase: str, prompt, inputs, by_rules: Rules):
        try:
            return self.llm.generate(prompt, inputs)
        except ProviderError as exc:
            return self._degrade(phase, prompt, inputs, exc, by_rules)

    def all(self, phase: str, prompt, inputs: list, by_rules: Rules) -> list:
        """One call per input: as one Message Batch under ``llm_batch`` when the provider has
        batches, else up to ``LLM_WORKERS`` at once for an online provider."""
        if self.params.llm_batch and isinstance(self.llm, BatchLLM) and inputs:
            answers = self._batch(phase, prompt, inputs)
            if answers is not None:
                return [
                    self._degrade(phase, prompt, x, a, by_rules) if isinstance(a, ProviderError) else a
                    for x, a in zip(inputs, answers)
                ]
        if not self.online or len(inputs) < 2:
            return [self.one(phase, prompt, x, by_rules) for x in inputs]
        with ThreadPoolExecutor(LLM_WORKERS, thread_name_prefix="graphmind-dream") as pool:
            return list(pool.map(lambda x: self.one(phase, prompt, x, by_rules), inputs))

    def _batch(self, phase: str, prompt, inputs: list) -> list | None:
        """The batch's answers, or None (recorded) when the batch as a whole failed."""
        self.progress(f"{phase}: {len(inputs)} LLM requests sent as one message batch; waiting")
        assert isinstance(self.llm, BatchLLM)
        try:
            return self.llm.generate_many(
                prompt,
                inputs,
                poll_s=self.params.batch_poll_seconds,
                timeout_s=self.params.batch_timeout_seconds,
                on_wait=self.renew,
            )
        except ProviderError as exc:
            self.degraded.append(f"{phase}: message batch failed ({exc}); calls made one by one")
            return None

    def _degrade(self, phase: str, prompt, inputs, exc: ProviderError, by_rules: Rules):
        note = f"{phase}: LLM failed ({exc}); {prompt.name} done by rules"
        if note not in self.degraded:
            self.degraded.append(note)
        return by_rules(inputs, ())
