"""The cloud budget of a wander session: a hard cap checked *before* each call.

Every call to a priced model (Anthropic) counts against ``cloud_budget_cents``; the offline
provider is free. Before a call, its cost is bounded from above: the prompt's tokens
(graphmind's local estimate, which errs high) plus the model's ``max_tokens`` of output,
twice over (``generate`` may re-ask once to repair an answer). A call whose bound would take
the spend past the budget is not made: the walk falls back from the strong to the cheap
model, and stops with ``budget exhausted`` when even the cheap one does not fit. After the
call, the cost the provider recorded is charged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from graphmind.llm import LLM
from graphmind.llm.base import cost_cents
from graphmind.text import approximate_tokens
from graphmind.wander._logic import budget_low, would_exceed

REPAIR_ATTEMPTS = 2


def call_bound_cents(llm: LLM, text: str, prices: Mapping[str, tuple[float, float]], calls: int = 1) -> float:
    """An upper bound of what ``calls`` ``generate`` calls with ``text`` (system + message) cost."""
    model, max_out = getattr(llm, "model", None), int(getattr(llm, "max_tokens", 0) or 0)
    if model is None or llm.provider == "offline":
        return 0.0
    tokens = approximate_tokens(text)
    return calls * REPAIR_ATTEMPTS * cost_cents(prices, model, tokens + max_out, max_out)


class BudgetExhausted(Exception):
    """No model fits in what is left of the budget (the walk stops; not an error of the run)."""


@dataclass
class Budget:
    limit_cents: float
    spent_cents: float = 0.0

    def allows(self, bound_cents: float) -> bool:
        return not would_exceed(self.spent_cents, bound_cents, self.limit_cents)

    def charge(self, cents: float) -> None:
        self.spent_cents = round(self.spent_cents + max(0.0, cents), 6)

    @property
    def low(self) -> bool:
        return budget_low(self.spent_cents, self.limit_cents)


def route(want_strong: bool, strong_bound: float, cheap_bound: float, budget: Budget) -> str:
    """``strong`` or ``cheap``: the strong model when wanted and affordable, else the cheap one
    when affordable; BudgetExhausted when neither fits."""
    if want_strong and budget.allows(strong_bound):
        return "strong"
    if budget.allows(cheap_bound):
        return "cheap"
    raise BudgetExhausted(
        f"the next call (up to {cheap_bound:.2f} cents) would pass the budget "
        f"({budget.spent_cents:.2f} of {budget.limit_cents:g} cents spent)"
    )
