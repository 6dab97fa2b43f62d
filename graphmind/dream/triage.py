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
``duplicate_similarity`` (the spec's 0.8) between failures (a second failure of a technique is
a lesson of its own unless it reads near word for word as the first) and where no strategy is
named and the embedding alone decides (a lower one there merges different requests that read
alike). At most ``max_per_session`` representatives per session_id, the most important first
(experiences without a session are not capped).

A success or progress note *told again* (``retold``) joins the representative of what it
retells whatever their cosine: its nearest earlier experience (of all the batch) has its
strategy name and outcome, and the name's last experience before it was not a failure (a
success after a failure tells the fix, and stays). Routine repeats are told in other words and
with other particulars: written blind, a survey team's and a dispatcher's ("Low-flow sampled
MW-06; stabilisation in about 20 minutes" after the first low-flow purge) lie at cosine
0.32-0.79 from their first account, mostly under any threshold that keeps different requests
apart (tests/data/triage_blind, bench/triage_quality.py). Nearest, not similar enough: under a
name used for several techniques (an "on-call runbook" over restarts, rate limits and
rotated credentials) a first restart lies nearer to restarts told without the name than to the
name's other techniques, so it stays a representative of its own. And more alike than chance:
a retelling lies further from what it retells than two texts about unrelated matters do by
chance with this embedder (``coherence.chance_level``: cosine 0.33 for MiniLM) only when the
name covers unrelated techniques, and then it stays. The rule sees one batch: a retelling read
by a later run than its first account joins that pattern as any experience does
(``compress.join_existing`` by name or centroid, or through its anchors).
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

    def waiting(self, deferred: list[int]) -> int:
        """How many experiences the ``deferred`` representatives leave waiting, duplicates included."""
        later = set(deferred)
        return len(later) + sum(rep in later for rep, _ in self.duplicate_of.values())


def nearest_earlier(vectors: np.ndarray, order: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """(cosine, index) of each experience's nearest one earlier in ``order`` (0 and -1 for the
    first), by index of ``vectors``."""
    n = len(order)
    best = np.zeros(n, dtype=np.float32)
    which = np.full(n, -1, dtype=np.int64)
    ordered = vectors[order]
    for start in range(1, n, BLOCK):  # the first has nothing before it
        block = ordered[start : start + BLOCK]
        sims = block @ ordered[: start + len(block)].T
        sims[:, start:] = np.where(np.tri(len(block), len(block), -1, dtype=bool), sims[:, start:], -np.inf)
        which[start : start + len(block)] = sims.argmax(axis=1)
        best[start : start + len(block)] = sims.max(axis=1)
    cosine, index = np.empty(n, dtype=np.float32), np.empty(n, dtype=np.int64)
    cosine[order] = best
    index[order] = np.where(which >= 0, np.asarray(order)[np.maximum(which, 0)], -1)
    return cosine, index


def novelty(earlier: np.ndarray, vectors: np.ndarray, centroids: np.ndarray | None = None) -> np.ndarray:
    """1 − the highest of each experience's cosine to an earlier one (``earlier``, from
    ``nearest_earlier``) and to a pattern centroid."""
    best = earlier
    if centroids is not None and len(centroids):
        best = np.maximum(best, (vectors @ centroids.T).max(axis=1))
    result: np.ndarray = (1.0 - np.clip(best, 0.0, 1.0)).astype(np.float32)
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
    rows: list[ExperienceRow],
    vectors: np.ndarray,
    params: DreamParams,
    centroids: np.ndarray | None = None,
    chance: float = 0.0,
) -> TriageResult:
    """Score, filter, collapse and cap ``rows`` (``vectors``: their unit embeddings). ``chance``:
    the cosine two texts about unrelated matters reach by chance with this embedder
    (``coherence.chance_level(embedder)(2)``); a retelling is more alike than that."""
    order = sorted(range(len(rows)), key=lambda i: (rows[i].timestamp or "", i))
    alike, nearest = nearest_earlier(vectors, order)
    scores = importance(rows, novelty(alike, vectors, centroids))
    keep = [
        i
        for i in range(len(rows))
        if rows[i].breakthrough or rows[i].outcome == "failure" or scores[i] >= params.min_importance
    ]
    filtered = sorted(set(range(len(rows))) - set(keep))
    pinned = {i for i in keep if rows[i].breakthrough}
    position = {i: p for p, i in enumerate(order)}
    # what was superseded stands for nothing still valid: a pattern would restate the old fact
    by_rank = sorted(keep, key=lambda i: (i not in pinned, rows[i].invalid, -scores[i], position[i]))
    named = [None if params.clustering == "semantic" else strategy_key(r) for r in rows]
    keys = [r.outcome + "|" + (name or "") for r, name in zip(rows, named)]
    by_name = {  # a failure is a lesson of its own unless told near word for word (the spec's 0.8)
        key: params.named_duplicate_similarity
        for key, name, r in zip(keys, named, rows)
        if name and r.outcome != "failure"
    }
    reps, duplicates = collapse(vectors, by_rank, params.duplicate_similarity, pinned, keys, by_name)
    dropped = _over_cap(rows, reps, pinned, params.max_per_session)
    if dropped:
        filtered += sorted(dropped | {d for d, (r, _) in duplicates.items() if r in dropped})
        duplicates = {d: v for d, v in duplicates.items() if v[0] not in dropped}
        reps = [i for i in reps if i not in dropped]
    # After the cap: a retelling joins only a representative that stays (its own session's cap).
    told = retold(rows, named, order, nearest, {i for i in keep if alike[i] > chance} - pinned)
    reps, duplicates = join_retold(vectors, order, told, reps, duplicates)
    return TriageResult(importance=scores, kept=sorted(reps), duplicate_of=duplicates, filtered=sorted(filtered))


def retold(
    rows: list[ExperienceRow], names: list[str | None], order: list[int], nearest: np.ndarray, candidates: set[int]
) -> dict[int, int]:
    """Each success or progress note among ``candidates`` told again → the experience it retells:
    its ``nearest`` earlier one, of its strategy name (``names``) and outcome, the name's last
    experience before it not being a failure."""
    last: dict[str, str] = {}
    told = {}
    for i in order:
        name = names[i]
        if name is None:
            continue
        j = int(nearest[i])
        if (
            i in candidates
            and rows[i].outcome != "failure"
            and last.get(name) not in (None, "failure")
            and j >= 0
            and names[j] == name
            and rows[j].outcome == rows[i].outcome
            and rows[i].invalid >= rows[j].invalid  # what still holds never stands under a superseded telling
        ):
            told[i] = j
        last[name] = rows[i].outcome
    return told


def join_retold(
    vectors: np.ndarray,
    order: list[int],
    told: dict[int, int],
    reps: list[int],
    duplicates: dict[int, tuple[int, float]],
) -> tuple[list[int], dict[int, tuple[int, float]]]:
    """``told`` experiences (and their own duplicates) joined to the representative of what
    they retell, in time order so that a retelling of a retelling reaches the first account;
    one that retells an experience no longer among the representatives stays."""
    kept = set(reps)
    under: dict[int, list[int]] = defaultdict(list)
    for dup, (rep, _) in duplicates.items():
        under[rep].append(dup)
    joined = dict(duplicates)
    for i in (i for i in order if i in told and i in kept):
        target = told[i]
        target = joined[target][0] if target in joined else target
        if target not in kept or target == i:
            continue
        kept.discard(i)
        for dup in [*under.pop(i, []), i]:
            joined[dup] = (target, round(min(float(vectors[dup] @ vectors[target]), 1.0), 4))
            under[target].append(dup)
    return [i for i in reps if i in kept], joined


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
