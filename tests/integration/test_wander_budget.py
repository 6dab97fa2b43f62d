"""The cloud budget is never exceeded on real walks (issue 7): a priced provider whose every
call costs a random amount up to what one call can cost, over several seeds and budgets."""

from __future__ import annotations

import dataclasses
import random

import pytest

from graphmind.llm.base import Usage
from graphmind.llm.offline import OfflineLLM
from graphmind.mind import Mind
from graphmind.wander.budget import call_bound_cents
from tests.conftest import new_mind_name
from tests.integration.helpers import DEMO

PRICES = {"priced-test-model": (300.0, 1500.0)}


class PricedOffline(OfflineLLM):
    """The offline provider's answers, billed like a cloud model: each call records a random
    cost between 0 and the most one call of this size could cost."""

    model, max_tokens = "priced-test-model", 2000

    def __init__(self, seed: int):
        super().__init__()
        self._rng = random.Random(seed)

    @property
    def provider(self) -> str:
        return "priced-test"

    def generate(self, prompt, inputs):
        out = super().generate(prompt, inputs)
        most = call_bound_cents(self, prompt.system + prompt.render(inputs), PRICES) / 2  # one attempt
        self.usage.add(
            Usage(provider=self.provider, model=self.model, prompt=prompt.key, cost_cents=self._rng.uniform(0, most))
        )
        return out


@pytest.mark.parametrize(("seed", "budget", "dweller"), [(1, 20, "simple"), (2, 35, "simple"), (3, 25, "rlm")])
def test_a_walk_never_spends_past_its_budget(store, settings, seed, budget, dweller):
    llm = PricedOffline(seed)
    mind = Mind(new_mind_name(), store, dataclasses.replace(settings, llm_prices=PRICES), llm=llm)
    try:
        mind.import_jsonl(DEMO)
        handle = mind.wander(
            "race conditions in async code",
            rng_seed=seed,
            cloud_budget_cents=budget,
            human_checkpoint_frequency=0,
            dweller=dweller,
        )
        report = handle.run(200)
        session = handle.session
        spent = llm.usage.cost_cents
        assert report.stopped_reason == "budget exhausted" and session.status == "paused"
        assert spent <= budget and session.cloud_spent_cents == pytest.approx(spent)
        assert "budget exhausted" in session.paused_reason
        assert session.cloud_calls and not session.local_calls
        steps = sum(r["trace"]["cost_cents"] for r in handle.trace())
        assert steps <= spent + 1e-6  # the steps' own costs (crystals' calls come on top)
    finally:
        mind.delete()
