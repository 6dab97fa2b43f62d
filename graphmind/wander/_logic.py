"""Wander's rules as pure functions (wander-technical-spec; issue 7, first step). Numbers are
the spec's defaults where it gives them; where it names a rule without defining it
(``should_crystallize``, ``should_use_cloud``, the circuit breaker), graphmind's definition is
written here.

- Session status machine: active → paused → active → completed | abandoned; a paused session
  may also be abandoned; completed and abandoned are final.
- Composite score of an adjacency: 0.3·interestingness + 0.3·novelty + 0.2·bridge_potential
  + 0.2·uncertainty; the next locus is drawn by softmax over scores at the session's
  temperature (0.7) with an injected ``random.Random``; temperature 0 takes the best.
- Distance-band sampling keeps candidates whose cosine to the current locus lies in a band
  (default 0.3-0.7): related, but not the nearest.
- Scope: a candidate's domains must meet ``allowed`` (when given) and miss ``forbidden``; its
  drift, 1 − the best cosine to the seed and fence embeddings, must be ≤ ``max_drift`` (0.8).
- Resonances lose 10% of their strength a day, computed from time: s·(1 − rate)^days. A
  reinforcement adds 1 to the decayed strength and an occurrence; ``CONFIRM_AT`` (3)
  occurrences confirm a candidate; below ``FLOOR`` (0.2) a resonance is invalidated.
- should_crystallize: a confirmed resonance of strength ≥ 1.5 among the step's resonances, or
  a locus with interestingness ≥ 0.8 and actionability ≥ 0.5.
- should_use_cloud: the strong model when the encounter crosses domains or the locus is at
  least 0.7 interesting, and the call would not exceed the budget.
- Budget: a call is refused *before* it would exceed the cloud budget; ``budget_low`` from 80%.
- Circuit breaker: 3 consecutive failures or 5 consecutive returns to the seed (fence hits, or
  nothing near in scope) pause the session with the reason.
- Human checkpoint: every ``human_checkpoint_frequency`` (50) steps.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from graphmind.errors import ValidationError

TRANSITIONS: dict[str, frozenset[str]] = {
    "active": frozenset({"paused", "completed", "abandoned"}),
    "paused": frozenset({"active", "abandoned"}),
    "completed": frozenset(),
    "abandoned": frozenset(),
}
WEIGHTS = {"interestingness": 0.3, "novelty": 0.3, "bridge_potential": 0.2, "uncertainty": 0.2}
CONFIRM_AT, FLOOR = 3, 0.2


@dataclass(frozen=True)
class SessionConfig:
    max_drift_distance: float = 0.8
    max_steps: int = 1000
    cloud_budget_cents: float = 500
    temperature: float = 0.7
    human_checkpoint_frequency: int = 50


@dataclass(frozen=True)
class Adjacency:
    concept: str
    interestingness: float = 0.5
    novelty: float = 0.5
    bridge_potential: float = 0.0
    uncertainty: float = 0.5
    strategy: str = "distance_band"

    @property
    def score(self) -> float:
        return round(float(sum(w * getattr(self, name) for name, w in WEIGHTS.items())), 6)


def transition(current: str, target: str) -> str:
    """``target`` if a session may go there from ``current``, else ValidationError."""
    if target not in TRANSITIONS.get(current, frozenset()):
        allowed = ", ".join(sorted(TRANSITIONS.get(current, ()))) or "nothing (it is final)"
        raise ValidationError(f"a {current} session cannot become {target}; it can become {allowed}", field="status")
    return target


def softmax_select(scores: Sequence[float], temperature: float, rng: random.Random) -> int:
    """Index drawn with probability ∝ exp(score / temperature); the best at temperature 0."""
    if not scores:
        raise ValueError("no adjacency to choose from")
    if temperature <= 0:
        return max(range(len(scores)), key=lambda i: (scores[i], -i))
    top = max(scores)
    weights = [math.exp((s - top) / temperature) for s in scores]
    return rng.choices(range(len(scores)), weights=weights, k=1)[0]


def distance_band(similarities: np.ndarray, low: float = 0.3, high: float = 0.7) -> list[int]:
    """Indices of candidates in the similarity band, most similar first."""
    inside = np.where((similarities >= low) & (similarities <= high))[0]
    return [int(i) for i in inside[np.argsort(-similarities[inside], kind="stable")]]


def drift(vector: np.ndarray, anchors: np.ndarray) -> float:
    """1 − the best cosine of unit ``vector`` to the unit rows of ``anchors`` (seed + fence)."""
    return round(1.0 - float(np.max(anchors @ vector)), 6) if len(anchors) else 0.0


def within_scope(
    domains: Sequence[str],
    drift_distance: float,
    config: SessionConfig,
    allowed: Sequence[str] = (),
    forbidden: Sequence[str] = (),
) -> tuple[bool, str | None]:
    """(passes, why not)."""
    if forbidden and set(domains) & set(forbidden):
        return False, f"forbidden domain {sorted(set(domains) & set(forbidden))[0]}"
    if allowed and not set(domains) & set(allowed):
        return False, "outside the allowed domains"
    if drift_distance > config.max_drift_distance:
        return False, f"drift {drift_distance:.2f} beyond the fence ({config.max_drift_distance:.2f})"
    return True, None


def decayed(strength: float, decay_rate: float, days: float) -> float:
    return float(strength * (1.0 - decay_rate) ** max(days, 0.0))


def reinforce(strength: float, occurrences: int, decay_rate: float, days: float, status: str) -> tuple[float, int, str]:
    """(strength, occurrences, status) after one more occurrence ``days`` after the last."""
    new_strength, count = decayed(strength, decay_rate, days) + 1.0, occurrences + 1
    new_status = "confirmed" if status == "candidate" and count >= CONFIRM_AT else status
    return round(new_strength, 6), count, new_status


def current_status(strength: float, decay_rate: float, days: float, status: str) -> str:
    return "invalidated" if decayed(strength, decay_rate, days) < FLOOR else status


def should_crystallize(resonances: Sequence[tuple[str, float]], interestingness: float, actionability: float) -> bool:
    """``resonances``: (status, strength) of the step's resonances."""
    strong = any(status == "confirmed" and strength >= 1.5 for status, strength in resonances)
    return strong or (interestingness >= 0.8 and actionability >= 0.5)


def would_exceed(spent_cents: float, cost_cents: float, budget_cents: float) -> bool:
    return spent_cents + cost_cents > budget_cents


def budget_low(spent_cents: float, budget_cents: float, warn_at: float = 0.8) -> bool:
    return budget_cents > 0 and spent_cents >= warn_at * budget_cents


def should_use_cloud(
    current_domains: Sequence[str],
    next_domains: Sequence[str],
    interestingness: float,
    spent_cents: float,
    cost_cents: float,
    budget_cents: float,
) -> bool:
    crosses = bool(set(current_domains) ^ set(next_domains))
    return (crosses or interestingness >= 0.7) and not would_exceed(spent_cents, cost_cents, budget_cents)


@dataclass
class CircuitBreaker:
    """Trips on a real stall: ``max_failures`` consecutive failed steps, or ``max_fence_hits``
    consecutive returns to the seed (a walk that returns and then moves on is not stuck; one
    that keeps returning finds nothing in scope from the seed itself)."""

    max_failures: int = 3
    max_fence_hits: int = 5
    failures: int = 0
    fence_hits: int = 0
    returns: int = 0

    def record(self, *, failed: bool = False, fence_hit: bool = False, returned: bool | None = None) -> str | None:
        """Count one step's outcome; the reason to pause when the breaker trips, else None.
        ``returned``: the step went back to the seed (defaults to ``fence_hit``)."""
        returned = fence_hit if returned is None else returned
        self.failures = self.failures + 1 if failed else 0
        if not failed and returned:
            self.returns, self.fence_hits = self.returns + 1, self.fence_hits + int(fence_hit)
        elif not failed:
            self.returns = self.fence_hits = 0
        if self.failures >= self.max_failures:
            return f"{self.failures} consecutive failures"
        if self.returns >= self.max_fence_hits:
            if self.fence_hits == self.returns:
                return f"{self.fence_hits} fence hits in a row"
            return f"stalled: {self.returns} steps in a row found nothing in scope"
        return None


def checkpoint_due(step: int, frequency: int) -> bool:
    return frequency > 0 and step > 0 and step % frequency == 0


EXCLUDE_COSINE = 0.6
"""A locus at least this close (cosine) to a fenced-out concept is out of scope."""
DOMAIN_EXCLUDE_COSINE = 0.4
"""A locus with a domain at least this close (cosine) to a fenced-out concept is out of scope:
a one-word concept ("emotions") is far from any memory's whole text (MiniLM: 0.0-0.15) but
close to the domain phrase its loci carry ("emotional state": 0.76). Calibrated on
tests/data/wander_fence/pairs.jsonl (bench/fence_quality.py): balanced accuracy 0.946 on the
plateau 0.38-0.42, against 0.72 for the concept threshold 0.6 and 0.53 for a shared word."""
UNCERTAINTY_BY_STRATEGY = {"tension": 0.9, "analogy": 0.7, "cross_domain_bridge": 0.5}
BRIDGE_BY_STRATEGY = {"cross_domain_bridge": 1.0, "analogy": 0.7}


def adjacency(
    concept: str,
    strategy: str,
    cosine: float,
    *,
    current_domains: Sequence[str],
    domains: Sequence[str],
    interestingness: float | None,
    uncertainty: float | None,
    visits: int,
    attractor_cosine: float | None = None,
) -> Adjacency:
    """The four scores of one candidate (graphmind's definitions where the spec names a score):
    - interestingness: what dwelling there last said, else 0.5; with an attractor, half of it
      is the candidate's cosine to the attractor (the pull);
    - novelty: 1 / (1 + the session's visits to it);
    - bridge_potential: 1 for a bridge, 0.7 for an analogy, else the share of its domains
      that the current locus lacks;
    - uncertainty: what dwelling said, else 0.9 for a tension, 0.7 for an analogy, 0.5 for a
      bridge, and 1 − cosine for a distance-band candidate (the farther, the less known)."""
    base = 0.5 if interestingness is None else interestingness
    if attractor_cosine is not None:
        base = 0.5 * base + 0.5 * max(0.0, attractor_cosine)
    fresh = [d for d in domains if d not in set(current_domains)]
    bridge = BRIDGE_BY_STRATEGY.get(strategy, len(fresh) / len(domains) if domains else 0.0)
    unsure = uncertainty if uncertainty is not None else UNCERTAINTY_BY_STRATEGY.get(strategy, 1.0 - cosine)
    return Adjacency(
        concept,
        interestingness=round(min(1.0, base), 6),
        novelty=round(1.0 / (1 + visits), 6),
        bridge_potential=round(bridge, 6),
        uncertainty=round(min(1.0, max(0.0, unsure)), 6),
        strategy=strategy,
    )


def fenced_out(vector: np.ndarray, excluded: np.ndarray, domains: np.ndarray | None = None) -> bool:
    """Whether a locus (unit ``vector``, its ``domains`` as unit rows) is fenced out: its
    concept within EXCLUDE_COSINE of a fenced-out concept, or one of its domains within
    DOMAIN_EXCLUDE_COSINE of one."""
    if not len(excluded):
        return False
    if float(np.max(excluded @ vector)) >= EXCLUDE_COSINE:
        return True
    return domains is not None and len(domains) > 0 and domain_fenced_out(domains, excluded)


def domain_fenced_out(domains: np.ndarray, excluded: np.ndarray) -> bool:
    """Whether one of the unit rows ``domains`` lies within DOMAIN_EXCLUDE_COSINE of a unit row
    of ``excluded``."""
    return float(np.max(domains @ excluded.T)) >= DOMAIN_EXCLUDE_COSINE
