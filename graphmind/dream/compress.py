"""Phase 3, compression: new experiences join the patterns they fit, the rest are clustered,
and each cluster of at least ``min_cluster_size`` experiences becomes a pattern.

Clustering (``params.clustering``): ``semantic`` clusters the embeddings (graphmind.dream.clustering);
``structural`` and ``hybrid`` (default) group the experiences whose strategy the agent named by
that name, split where it covers techniques the meaning tells apart (``incoherent_split``), and
cluster the rest by meaning. ``kind`` and ``outcome`` never make a group. A cluster made by
meaning no more alike than texts about unrelated matters by chance (``coherence``) makes no
pattern: its experiences wait, deferred. A representative weighs 1 + its duplicates.

A new cluster that matches an active pattern (``matching_pattern``) grows it: one pattern per group.

Extraction (``params.extraction``) chooses which members the one LLM call per cluster sees:
``centroid`` the 12 nearest the centroid; ``exemplar`` the 3 nearest; ``composite`` the 6
nearest plus the 6 farthest-apart (farthest-point order). Statistics (success rate, usage,
confidence) always come from every member, never from the LLM.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from graphmind.dream.anchors import Anchors, claims
from graphmind.dream.clustering import cluster_vectors, unit_rows
from graphmind.dream.coherence import above_chance
from graphmind.dream.items import ExperienceRow, PatternState, Tally, centroid_of, filed_apart, strategy_key
from graphmind.dream.naming import describe
from graphmind.dream.params import DreamParams
from graphmind.dream.small_batch import small_batch_labels
from graphmind.prompts.dream import ExperienceItem, ExtractedPattern, PatternExtractionInput

SHOWN = {"centroid": 12, "exemplar": 3, "composite": 12}
COMPANIONS = 1
"""Duplicates of one representative that join the clustering's graph. On CLINC150 (clustering
alone, 5 seeds) one lifts pattern ARI from 0.55 to 0.62 with 5 requests per intent and from
0.75-0.81 to 0.81-0.86 with 10-20, and leaves 100 per intent at 0.81. Five lift the small
slices further (0.68, 0.83-0.88) but lower 100 per intent to 0.78, and made the compression
of a 100,000-experience run (hashing embedder) 3.7 times slower."""
_NOT_NAME = re.compile(r"[\W_]+")


@dataclass(frozen=True)
class Cluster:
    members: list[int]
    """Indices (into the run's experiences) of the representatives in the cluster."""
    weight: int
    centroid: np.ndarray
    """The representatives' mean, each weighted by what it stands for (cohesion is measured to it)."""
    mean: np.ndarray
    """The mean of every experience it stands for, duplicates included: the pattern's centroid,
    and what ``matching_pattern`` compares (a success retold in other words is not one telling
    of it)."""
    strategies: frozenset[str] = frozenset()
    """The strategy names (``strategy_key``) of every experience it stands for."""


def join_existing(
    vectors: np.ndarray,
    reps: list[int],
    patterns: list[PatternState],
    rows: list[ExperienceRow],
    params: DreamParams,
    chance: float,
) -> dict[int, int]:
    """Representative → index of the existing pattern it joins. A representative filed under a
    strategy name joins the nearest pattern whose experiences were filed under that name too, when
    its cosine to the pattern's centroid is above ``chance`` (what two unrelated texts reach; a
    low bar, as the agent's own word says it is that technique, and a name is split only where
    meaning clearly says so, ``incoherent_split``).
    Otherwise the nearest it reaches (cosine ≥ ``join_similarity``) among those not filed under
    other names than its own (``items.filed_apart``). Names are ignored when clustering is
    semantic."""
    if not reps or not patterns:
        return {}
    sims = vectors[reps] @ np.vstack([p.centroid for p in patterns]).T
    named = np.zeros_like(sims, dtype=bool)
    if params.clustering != "semantic":
        by_name: dict[str, list[int]] = defaultdict(list)
        for k, i in enumerate(reps):
            key = strategy_key(rows[i])
            if key:
                by_name[key].append(k)
        for key, ks in by_name.items():
            apart = [filed_apart(frozenset({key}), p.strategies) for p in patterns]
            sims[np.ix_(np.asarray(ks), np.flatnonzero(apart))] = -np.inf
            named[np.ix_(np.asarray(ks), np.asarray([key in p.strategies for p in patterns]))] = True
    joined: dict[int, int] = {}
    for k, i in enumerate(reps):
        by_name_sims = np.where(named[k], sims[k], -np.inf)
        best = int(by_name_sims.argmax())
        if by_name_sims[best] > chance:
            joined[i] = best
            continue
        best = int(sims[k].argmax())
        if sims[k, best] >= params.join_similarity:
            joined[i] = best
    return joined


def matching_pattern(
    centroid: np.ndarray,
    name: str | None,
    patterns: list[PatternState],
    params: DreamParams,
    strategies: frozenset[str] = frozenset(),
) -> int | None:
    """Index of the active pattern that a new group of experiences (its ``centroid``, and its
    extracted ``name`` once known) is one with, or None: the most similar of those whose
    centroid is at least ``redundancy_similarity`` alike (the spec's duplicate threshold:
    integration would prune the group as that pattern's twin, its experiences counted
    nowhere), or named the same (``name_key``) and at least ``cross_connect_similarity`` alike
    (the namer saw one technique; the spec's "related" floor keeps two unrelated groups that
    happen to share a name apart). A pattern whose experiences the agent filed under other
    strategy names than the group's (``strategies``) is never one with it, as two such patterns
    are never twins (``integrate.named_apart``)."""
    best, best_sim = None, -1.0
    key = name_key(name) if name else None
    for k, p in enumerate(patterns):
        if params.clustering != "semantic" and filed_apart(strategies, p.strategies):
            continue
        sim = float(centroid @ p.centroid) if p.active and len(p.centroid) == len(centroid) else -1.0
        named = key is not None and name_key(p.name) == key and sim >= params.cross_connect_similarity
        if (sim >= params.redundancy_similarity or named) and sim > best_sim:
            best, best_sim = k, sim
    return best


def name_key(name: str) -> str:
    """A name compared without case, punctuation or spacing ("DNS cache-flush" = "dns cache flush")."""
    return " ".join(_NOT_NAME.sub(" ", name.casefold()).split())


def companions(
    duplicates: Mapping[int, Sequence[int]], reps: Sequence[int], texts: Sequence[str]
) -> dict[int, list[int]]:
    """The duplicates (up to ``COMPANIONS`` each, first ones first) that go with ``reps``;
    one whose ``texts`` reads word for word as its representative's adds nothing to the
    graph but a second copy of the same node, and stays out."""
    out = {}
    for i in reps:
        found = [d for d in duplicates.get(i, ()) if texts[d] != texts[i]][:COMPANIONS]
        if found:
            out[i] = found
    return out


def with_companions(indices: Sequence[int], companions: Mapping[int, Sequence[int]] | None) -> list[int]:
    """``indices``, then the companions of each, in order: the experiences clustering sees."""
    return [*indices, *(d for i in indices for d in (companions or {}).get(i, ()))]


def cluster(
    rows: list[ExperienceRow],
    vectors: np.ndarray,
    reps: list[int],
    weights: np.ndarray,
    params: DreamParams,
    grouping: np.ndarray | None = None,
    texts: list[str] | None = None,
    chance: Callable[[int], float] | None = None,
    companions: Mapping[int, Sequence[int]] | None = None,
    duplicates: Mapping[int, Sequence[int]] | None = None,
    anchors: Anchors | None = None,
) -> tuple[list[Cluster], list[int], list[str], dict[int, int]]:
    """Clusters of weight ≥ min_cluster_size, the representatives left in none, a warning per
    named strategy whose experiences were split (``incoherent_split``), and the representatives
    that fell among an earlier pattern's ``anchors`` (→ index of the pattern they grow).

    ``grouping`` (row i: experience i) and ``texts`` are what meaning is judged on, by default
    the embeddings and descriptions; the engine passes the action texts' (``entities``), so
    the technique decides, not the service it was applied to. Centroids always come from
    ``vectors``. A named strategy makes a group (hybrid, structural); ``kind`` and ``outcome``
    never do: experiences without a strategy are clustered by meaning, all together.
    ``chance`` (``coherence.chance_level``): a cluster made by meaning must be more alike than
    chance for its size, else its members are left in none (a named strategy is kept).
    ``companions`` (a representative → its duplicates, from triage) join the similarity graph
    of the experiences clustered by meaning, as near-duplicates show what belongs together
    (on CLINC150, clustering the representatives alone cost 0.04-0.10 ARI), but each follows
    its representative: only representatives are labelled. ``duplicates`` (a representative →
    all its duplicates) give each cluster its ``mean``."""
    grouping = vectors if grouping is None else grouping
    texts = [r.description for r in rows] if texts is None else texts
    named: dict[str, list[int]] = defaultdict(list)
    unnamed: list[int] = []
    for i in reps:
        key = strategy_key(rows[i]) if params.clustering != "semantic" else None
        (named[key] if key else unnamed).append(i)
    found: list[list[int]] = []
    lumped: list[int] = []
    warned: list[str] = []
    for members in named.values():
        parts = incoherent_split(grouping[members], [texts[i] for i in members], weights[members], params)
        if len(parts) > 1:
            warned.append(
                f"strategy {rows[members[0]].strategy_used!r} names {len(parts)} different "
                f"techniques ({len(members)} experiences): split by meaning"
            )
        found.extend([members[k] for k in part] for part in parts)
    claimed: dict[int, int] = {}
    if len(unnamed) >= 2 or (unnamed and anchors):
        pool = with_companions(unnamed, companions)
        stacked = grouping[pool] if anchors is None else np.vstack([grouping[pool], anchors.vectors])
        if len(unnamed) < params.ratio_min_experiences:  # too few for the k-NN graph (small_batch.py)
            labels = small_batch_labels(stacked, params)
        else:
            labels = cluster_vectors(
                stacked,
                [texts[i] for i in pool] + (anchors.texts if anchors else []),
                min_cluster_size=1,
                max_clusters=max_patterns(float(weights[unnamed].sum()), params) + (anchors.groups if anchors else 0),
                counted=len(unnamed),
                seed=params.seed,
            )
        if anchors is not None:
            claimed = claims(
                unnamed, unit_rows(grouping[unnamed]), labels[: len(unnamed)], labels[len(pool) :], anchors
            )
        by_label: dict[int, list[int]] = defaultdict(list)
        for i, label in zip(unnamed, labels[: len(unnamed)]):
            if i not in claimed:
                by_label[int(label)].append(i)
        for members in by_label.values():
            if chance is None or above_chance(grouping[members], chance):
                found.append(members)
            else:
                lumped.extend(members)
    elif unnamed:
        found.append(unnamed)
    clusters, left = [], lumped
    for members in found:
        weight = int(weights[members].sum())
        if weight >= params.min_cluster_size:
            everyone = [j for i in members for j in (i, *(duplicates or {}).get(i, ()))]
            centroid = centroid_of(vectors[members], weights[members])
            names = frozenset(k for k in (strategy_key(rows[j]) for j in everyone) if k)
            clusters.append(Cluster(members, weight, centroid, centroid_of(vectors[everyone]), names))
        else:
            left.extend(members)
    return sorted(clusters, key=lambda c: -c.weight), sorted(left), warned, claimed


def ratio_band(params: DreamParams) -> tuple[float, float]:
    """The compression ratios the run aims within: target_ratio ± ratio_tolerance (7-13:1)."""
    return params.target_ratio * (1 - params.ratio_tolerance), params.target_ratio * (1 + params.ratio_tolerance)


def max_patterns(experiences: float, params: DreamParams) -> int:
    """The most communities ``experiences`` clustered by meaning may make where their similarities
    show no scale of their own (``clustering.DUST_SHARE``): one per the band's lowest ratio (7:
    10:1 ± 30%, duplicates counted), at least 2: a small batch may still hold a pattern beside
    a lump no more alike than chance (whose members wait)."""
    return max(2, math.floor(experiences / ratio_band(params)[0] + 1e-9))


def incoherent_split(
    vectors: np.ndarray, texts: list[str], weights: np.ndarray, params: DreamParams
) -> list[list[int]]:
    """The parts (positions) of a group that shares a strategy name: one part, unless its
    cohesion (mean cosine of the unit ``vectors`` to their centroid) is below
    ``params.strategy_min_cohesion`` and its experiences fall into ≥ 2 clusters by meaning of
    weight ≥ ``min_cluster_size``; then those clusters (the members of smaller ones join the
    nearest). A name the agent gave is kept unless the meaning clearly says it covers
    several techniques."""
    n = len(vectors)
    if n < 2 * params.min_cluster_size:
        return [list(range(n))]
    cohesion = float(np.average(vectors @ centroid_of(vectors, weights), weights=weights))
    if cohesion >= params.strategy_min_cohesion:
        return [list(range(n))]
    labels = cluster_vectors(vectors, texts, min_cluster_size=1, seed=params.seed)
    mass = np.bincount(labels, weights)
    big = np.flatnonzero(mass >= params.min_cluster_size)
    if len(big) < 2:
        return [list(range(n))]
    centroids = np.vstack([centroid_of(vectors[labels == b]) for b in big])
    assigned = np.where(np.isin(labels, big), labels, big[np.argmax(vectors @ centroids.T, axis=1)])
    return [np.flatnonzero(assigned == b).tolist() for b in big]


def shown_members(c: Cluster, vectors: np.ndarray, strategy: str) -> list[int]:
    """The members the extraction prompt shows, most central first."""
    sims = vectors[c.members] @ c.centroid
    central = [c.members[k] for k in np.argsort(-sims, kind="stable")]
    if strategy != "composite":
        return central[: SHOWN[strategy]]
    chosen = central[:6]
    while len(chosen) < min(SHOWN["composite"], len(central)):
        rest = [i for i in central if i not in chosen]
        far = np.max(vectors[rest] @ vectors[chosen].T, axis=1)
        chosen.append(rest[int(np.argmin(far))])
    return chosen


def extraction_input(
    c: Cluster,
    rows: list[ExperienceRow],
    vectors: np.ndarray,
    importance: list[float],
    params: DreamParams,
    actions: Sequence[str] | None = None,
) -> PatternExtractionInput:
    """What the extraction is shown of cluster ``c``: its members that still hold, if any (not a
    superseded fact); ``actions``: the rows' texts without the batch's names, for offline rules."""
    items = [
        ExperienceItem(
            id=rows[i].id,
            description=rows[i].description,
            action=actions[i] if actions is not None else None,
            outcome=rows[i].outcome,
            kind=rows[i].kind,
            strategy_used=rows[i].strategy_used,
            importance=round(min(1.0, importance[i]), 4),
            confidence=rows[i].confidence,
        )
        for i in shown_members(holding(c, rows), vectors, params.extraction)
    ]
    return PatternExtractionInput(experiences=items, domain=params.domain or "recorded")


def holding(c: Cluster, rows: list[ExperienceRow]) -> Cluster:  # the members that still hold, else all
    return replace(c, members=[i for i in c.members if not rows[i].invalid] or c.members)


def pattern_id(member_ids: list[str]) -> str:
    return "pattern-" + hashlib.sha1("\n".join(sorted(member_ids)).encode()).hexdigest()[:12]


def new_pattern(
    c: Cluster,
    extracted: ExtractedPattern,
    rows: list[ExperienceRow],
    vectors: np.ndarray,
    duplicates: dict[int, list[int]],
    params: DreamParams,
) -> PatternState:
    """The pattern of cluster ``c``: the LLM's name, conditions and actions; counted statistics."""
    tally = Tally()
    members = [j for i in c.members for j in (i, *duplicates.get(i, ()))]
    for j in members:
        tally.add(rows[j].outcome, rows[j].kind)
    ids = [rows[i].id for i in c.members]
    central = [rows[i].id for i in shown_members(holding(c, rows), vectors, "centroid")]
    examples = [e for e in extracted.example_ids if e in set(ids)]
    copies = [rows[j].id for i in c.members for j in duplicates.get(i, ()) if not rows[j].invalid]
    examples = list(dict.fromkeys([*examples, *central]))[: params.max_examples]
    examples += copies[: max(0, 3 - len(examples))]  # at least 3 when there are: duplicates fill in
    return PatternState(
        id=pattern_id(ids),
        name=extracted.name,
        pattern_type=extracted.pattern_type,
        description=describe(extracted),
        centroid=c.mean,
        tally=tally,
        conditions=list(extracted.conditions),
        actions=list(extracted.actions),
        examples=examples,
        new_members=[rows[j].id for j in members],
        is_new=True,
        changed=True,
        cohesion=float(np.average(vectors[c.members] @ c.centroid)),
        strategies=c.strategies,
    )


def grow(
    pattern: PatternState,
    joined: list[int],
    rows: list[ExperienceRow],
    vectors: np.ndarray,
    duplicates: dict[int, list[int]],
) -> None:
    """Add new experiences to an existing pattern: counts, centroid and members (no LLM call)."""
    members = [j for i in joined for j in (i, *duplicates.get(i, ()))]
    old = pattern.usage_count
    for j in members:
        pattern.tally.add(rows[j].outcome, rows[j].kind)
    added = centroid_of(vectors[members])
    pattern.centroid = centroid_of(
        np.vstack([pattern.centroid, added]), np.array([max(old, 1), len(members)], dtype=np.float64)
    )
    pattern.new_members.extend(rows[j].id for j in members)
    pattern.strategies |= {k for k in (strategy_key(rows[j]) for j in members) if k}
    pattern.changed = True
