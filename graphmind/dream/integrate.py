"""Phase 5, integration and pruning: redundant and low-utility patterns are marked pruned
(never deleted), and related active patterns are cross-connected.

- redundant: cosine of centroids ≥ ``redundancy_similarity`` (0.8) to a pattern of higher
  utility → ``status: pruned``, ``pruned_reason: redundant``, SUPERSEDED_BY that pattern;
  two patterns that contradict each other are never redundant: both stay, for verification
  to flag (the seed: "flag in verification, present both with confidence scores");
- low utility: utility < ``min_utility`` (0.2) → ``pruned_reason: low_utility``, SUPERSEDED_BY
  the most similar active pattern when one is at least ``cross_connect_similarity`` close;
- a failure is a result: a pattern that records a failure (``Tally.records_failure``, at
  least ``failure_share`` of its experiences failed) is never pruned for low utility, and is
  pruned as redundant only to a pattern that records a failure too (``keeps_failure``), so
  pruning never removes the only evidence that something did not work;
- connections: every pair of active patterns with cosine ≥ ``cross_connect_similarity``
  (0.6), its kind by graphmind.dream.rules, its strength the cosine, its evidence one example
  of each side.
Pruning runs before the ladder is built, so the ladder stands on active patterns only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from graphmind.dream import rules
from graphmind.dream.items import Connection, PatternState, filed_apart
from graphmind.dream.params import DreamParams
from graphmind.prompts.dream import PatternItem


@dataclass(frozen=True)
class Pruning:
    pattern_id: str
    reason: str
    superseded_by: str | None


def item(p: PatternState) -> PatternItem:
    return PatternItem(
        id=p.id,
        description=p.description,
        name=p.name,
        conditions=p.conditions,
        actions=p.actions,
        success_rate=p.success_rate,
        example_ids=p.examples,
    )


def centroids(patterns: list[PatternState]) -> np.ndarray:
    return np.vstack([p.centroid for p in patterns]) if patterns else np.empty((0, 0), np.float32)


def prune(patterns: list[PatternState], params: DreamParams) -> list[Pruning]:
    """Mark redundant and low-utility active patterns pruned (in place); what was pruned."""
    active = sorted((p for p in patterns if p.active), key=lambda p: (-p.utility, p.id))
    if not active:
        return []
    sims = centroids(active) @ centroids(active).T
    kept: list[int] = []
    pruned: list[Pruning] = []
    for i, p in enumerate(active):
        twin = next(
            (
                k
                for k in kept
                if sims[i, k] >= params.redundancy_similarity
                and rules.contradiction(item(p), item(active[k])) is None
                and keeps_failure(p, active[k], params)
                and not named_apart(p, active[k], params)
            ),
            None,
        )
        if twin is not None:
            pruned.append(_mark(p, "redundant", active[twin].id))
        else:
            kept.append(i)
    for i in list(kept):
        p = active[i]
        if p.utility < params.min_utility and not p.tally.records_failure(params.failure_share):
            kept.remove(i)
            near = max(kept, key=lambda k: sims[i, k], default=None)
            by = active[near].id if near is not None and sims[i, near] >= params.cross_connect_similarity else None
            pruned.append(_mark(p, "low_utility", by))
    return pruned


def named_apart(p: PatternState, q: PatternState, params: DreamParams) -> bool:
    """The agent filed ``p``'s and ``q``'s experiences under different strategy names: two
    techniques, however alike their texts read (templated moves of a puzzle: "hidden single"
    and "pointing pair" means lie at cosine 0.81), as a run's grouping keeps them (unless
    ``clustering`` is semantic)."""
    return params.clustering != "semantic" and filed_apart(p.strategies, q.strategies)


def keeps_failure(p: PatternState, by: PatternState, params: DreamParams) -> bool:
    """Whether ``p`` may be superseded by ``by`` without losing a negative result: ``p``
    records no failure, or ``by`` records one too."""
    share = params.failure_share
    return not p.tally.records_failure(share) or by.tally.records_failure(share)


def _mark(p: PatternState, reason: str, by: str | None) -> Pruning:
    """Prune ``p``; one superseded by a twin (``redundant``) is also ``invalidated``: its twin
    holds what it said. A low-utility one keeps its verification (it was not shown wrong)."""
    p.status, p.pruned_reason, p.superseded_by, p.changed = "pruned", reason, by, True
    if reason == "redundant":
        p.verification_status = "invalidated"
    return Pruning(p.id, reason, by)


def connect(patterns: list[PatternState], params: DreamParams) -> list[Connection]:
    """Connections between active patterns at least ``cross_connect_similarity`` alike."""
    active = sorted((p for p in patterns if p.active), key=lambda p: p.id)
    if len(active) < 2:
        return []
    sims = centroids(active) @ centroids(active).T
    found = []
    for i in range(len(active)):
        for j in range(i + 1, len(active)):
            if sims[i, j] >= params.cross_connect_similarity:
                found.append(connection(active[i], active[j], float(sims[i, j])))
    return found


def connection(a: PatternState, b: PatternState, similarity: float) -> Connection:
    kind, src, dst, because = rules.classify(item(a), item(b))
    evidence = tuple(e for e in (src.example_ids[:1] + dst.example_ids[:1]))
    return Connection(src.id, dst.id, kind, round(min(1.0, max(0.0, similarity)), 4), evidence, because)
