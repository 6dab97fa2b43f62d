"""Phase 2, triage: score each experience, keep the significant ones, collapse near-duplicates.

importance = 0.4·outcome + 0.3·novelty + 0.2·error + 0.1·efficiency (FR-2.1.2), where
- outcome: success 1, progress 0.5, failure 0 ("did it solve the puzzle?");
- novelty: 1 − the highest cosine similarity to an earlier experience of the batch (by
  timestamp, then input order) or to an existing pattern's centroid: a new strategy scores high,
  the twentieth naked single scores low;
- error: 1 for a failure ("learning opportunity"), else 0;
- efficiency: the experience's own confidence when it has one, else 0.5.
An experience that arrives with an ``importance`` (the attention mechanism's score) keeps it.

Kept: importance ≥ ``min_importance``, and every failure and every breakthrough (an insight or a
high-impact experience) whatever its score; a repeated failure may still collapse onto a like one.
Near-duplicates collapse onto one representative, the most important one, by a DUPLICATE_OF
edge: nothing is deleted, and a representative stands for its duplicates in every count.
Breakthroughs are always representatives. Unless clustering is ``semantic``, only experiences
of one structural key (the strategy the agent named) can be duplicates: "retry" and "never
retry" read alike but are different strategies. A failure never collapses onto a success (nor
the reverse): they read alike but teach different things. The cosine that makes a duplicate:
``named_duplicate_similarity`` between experiences the agent filed under one strategy name (the
name says they are one technique; the embedding only has to confirm it is told again),
``duplicate_similarity`` (the spec's 0.8) where no strategy is named and the embedding alone
decides (a lower one there merges different requests that read alike). At most ``max_per_session`` representatives per
session_id, the most important first (experiences without a session are not capped).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from graphmind.dream.items import OUTCOME_SCORE, ExperienceRow, strategy_key
from graphmind.dream.params import DreamParams

BLOCK = 128


@dataclass(frozen=True)
class TriageResult:
    importance: list[float]
    kept: list[int]
    """Indices of the representatives that go on to compression."""
    duplicate_of: dict[int, tuple[int, float]] = field(default_factory=dict)
    """Index of a collapsed experience → (its representative, cosine)."""
    filtered: list[int] = field(default_factory=list)
    """Below the importance floor or over the session cap (they and their duplicates)."""

    def weight(self, n: int) -> np.ndarray:
        """How many experiences each index stands for (1 + its duplicates; 0 for duplicates)."""
        weights = np.ones(n, dtype=np.int64)
        for dup, (rep, _) in self.duplicate_of.items():
            weights[dup] = 0
            weights[rep] += 1
        return weights


def novelty(vectors: np.ndarray, order: list[int], centroids: np.ndarray | None = None) -> np.ndarray:
    """1 − max cosine to any experience earlier in ``order`` or to a pattern centroid."""
    n = len(order)
    best = np.zeros(n, dtype=np.float32)
    ordered = vectors[order]
    for start in range(0, n, BLOCK):
        block = ordered[start : start + BLOCK]
        sims = block @ ordered[: start + len(block)].T
        sims[:, start:] = np.where(np.tri(len(block), len(block), -1, dtype=bool), sims[:, start:], -1.0)
        best[start : start + len(block)] = sims.max(axis=1) if sims.shape[1] else 0.0
    if centroids is not None and len(centroids):
        best = np.maximum(best, (ordered @ centroids.T).max(axis=1))
    result = np.empty(n, dtype=np.float32)
    result[order] = 1.0 - np.clip(best, 0.0, 1.0)
    return result


def importance(rows: list[ExperienceRow], novelty_scores: np.ndarray) -> list[float]:
    scores = []
    for row, nov in zip(rows, novelty_scores):
        if row.importance is not None:
            scores.append(row.importance)
            continue
        efficiency = row.confidence if row.confidence is not None else 0.5
        error = 1.0 if row.outcome == "failure" else 0.0
        scores.append(round(0.4 * OUTCOME_SCORE[row.outcome] + 0.3 * float(nov) + 0.2 * error + 0.1 * efficiency, 4))
    return scores


def collapse(
    vectors: np.ndarray,
    candidates: list[int],
    threshold: float,
    pinned: set[int],
    keys: list[str] | None = None,
    key_thresholds: dict[str, float] | None = None,
) -> tuple[list[int], dict[int, tuple[int, float]]]:
    """Greedy leader collapse in ``candidates`` order: an experience within ``threshold`` (its
    key's in ``key_thresholds``, if there) of a representative of its key becomes its duplicate;
    ``pinned`` ones are always representatives."""
    if keys is not None:
        groups: dict[str, list[int]] = defaultdict(list)
        for i in candidates:
            groups[keys[i]].append(i)
        kept: list[int] = []
        merged: dict[int, tuple[int, float]] = {}
        for key, members in groups.items():
            found, dups = collapse(vectors, members, (key_thresholds or {}).get(key, threshold), pinned)
            kept += found
            merged |= dups
        order = {i: p for p, i in enumerate(candidates)}
        return sorted(kept, key=order.__getitem__), merged
    reps: list[int] = []
    rep_vectors = np.empty((0, vectors.shape[1]), dtype=np.float32)
    duplicates: dict[int, tuple[int, float]] = {}
    for start in range(0, len(candidates), BLOCK):
        chunk = candidates[start : start + BLOCK]
        to_reps = vectors[chunk] @ rep_vectors.T if len(reps) else None
        fresh: list[int] = []
        for pos, i in enumerate(chunk):
            best, best_sim = -1, -1.0
            if to_reps is not None:
                j = int(np.argmax(to_reps[pos]))
                best, best_sim = reps[j], float(to_reps[pos, j])
            if fresh:
                sims = vectors[fresh] @ vectors[i]
                j = int(np.argmax(sims))
                if sims[j] > best_sim:
                    best, best_sim = fresh[j], float(sims[j])
            if best_sim >= threshold and i not in pinned:
                duplicates[i] = (best, round(min(best_sim, 1.0), 4))
            else:
                fresh.append(i)
        reps.extend(fresh)
        rep_vectors = np.vstack([rep_vectors, vectors[fresh]])
    return reps, duplicates


def triage(
    rows: list[ExperienceRow], vectors: np.ndarray, params: DreamParams, centroids: np.ndarray | None = None
) -> TriageResult:
    """Score, filter, collapse and cap ``rows`` (``vectors``: their unit embeddings)."""
    order = sorted(range(len(rows)), key=lambda i: (rows[i].timestamp or "", i))
    scores = importance(rows, novelty(vectors, order, centroids))
    keep = [
        i
        for i in range(len(rows))
        if rows[i].breakthrough or rows[i].outcome == "failure" or scores[i] >= params.min_importance
    ]
    filtered = sorted(set(range(len(rows))) - set(keep))
    pinned = {i for i in keep if rows[i].breakthrough}
    position = {i: p for p, i in enumerate(order)}
    by_rank = sorted(keep, key=lambda i: (i not in pinned, -scores[i], position[i]))
    named = [None if params.clustering == "semantic" else strategy_key(r) for r in rows]
    keys = [r.outcome + "|" + (name or "") for r, name in zip(rows, named)]
    by_name = {key: params.named_duplicate_similarity for key, name in zip(keys, named) if name}
    reps, duplicates = collapse(vectors, by_rank, params.duplicate_similarity, pinned, keys, by_name)
    dropped = _over_cap(rows, reps, pinned, params.max_per_session)
    if dropped:
        filtered += sorted(dropped | {d for d, (r, _) in duplicates.items() if r in dropped})
        duplicates = {d: v for d, v in duplicates.items() if v[0] not in dropped}
        reps = [i for i in reps if i not in dropped]
    return TriageResult(importance=scores, kept=sorted(reps), duplicate_of=duplicates, filtered=sorted(filtered))


def _over_cap(rows: list[ExperienceRow], reps: list[int], pinned: set[int], cap: int) -> set[int]:
    """Representatives beyond ``cap`` in their session (reps come most important first)."""
    per_session: dict[str, int] = defaultdict(int)
    dropped = set()
    for i in reps:
        session = rows[i].session_id
        if session is None:
            continue
        per_session[session] += 1
        if per_session[session] > cap and i not in pinned:
            dropped.add(i)
    return dropped
