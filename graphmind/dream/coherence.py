"""Is a cluster more alike than texts about unrelated things are? The check that keeps a
handful of one-off experiences from becoming a pattern.

A k-NN graph links every experience to its nearest others however far they are, so a few
experiences about unrelated matters (a sourdough, a bicycle chain, a fig tree) can end up as
one community and, at three or more, as a pattern. A cluster made by meaning is kept only when
its cohesion (the mean cosine over its pairs of members) is above what ``size`` texts about
unrelated matters reach by chance in the same embedding space: the ``QUANTILE`` of the cohesion
of random ``size``-subsets of ``unrelated.UNRELATED``, embedded with the dream's embedder. So
the bar follows the embedder (MiniLM places unrelated texts near cosine 0.09, the hashing
embedder near 0.21) and the cluster's size (the mean of many pairs strays less from chance
than the mean of three). Calibration (``bench/dream_quality.py``): at the 99th percentile no
cluster found in CLINC150, in the crossed incident log or in the two independently written
crossed logs is dissolved, and a lump of four experiences about unrelated hobbies is.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from statistics import NormalDist

import numpy as np

from graphmind.dream.clustering import unit_rows
from graphmind.dream.unrelated import UNRELATED
from graphmind.embed import Embedder

log = logging.getLogger(__name__)

QUANTILE = 99.0
SAMPLES = 2000
MAX_SIZE = 30
"""Past this size the chance level of ``MAX_SIZE`` is used (it only falls with size)."""

_levels: dict[tuple[str, str], np.ndarray] = {}
"""(measure, embedding model) → its levels, computed once per process."""
_references: dict[str, np.ndarray] = {}
"""Embedding model → ``unrelated.UNRELATED`` embedded by it (unit rows)."""
_lock = threading.Lock()


def cohesion(vectors: np.ndarray) -> float:
    """Mean cosine over the pairs of the unit rows of ``vectors`` (1.0 for fewer than two)."""
    n = len(vectors)
    if n < 2:
        return 1.0
    total = vectors.sum(axis=0)
    return float((total @ total - np.einsum("ij,ij->", vectors, vectors)) / (n * (n - 1)))


def chance_levels(reference: np.ndarray, quantile: float = QUANTILE, seed: int = 0) -> np.ndarray:
    """levels[s]: the ``quantile`` of the cohesion of random ``s``-subsets of the unit rows of
    ``reference`` (s = 2 .. min(MAX_SIZE, rows); levels[0] and levels[1] are 1.0)."""
    sims = reference @ reference.T
    rng = np.random.default_rng(seed)
    top = min(MAX_SIZE, len(reference))
    levels = np.ones(top + 1)
    for size in range(2, top + 1):
        picks = _subsets(rng, len(reference), size)
        block = sims[picks[:, :, None], picks[:, None, :]]
        values = (block.sum(axis=(1, 2)) - size) / (size * (size - 1))
        levels[size] = float(np.percentile(values, quantile))
    return levels


def chance_level(embedder: Embedder) -> Callable[[int], float]:
    """size → the cohesion a cluster of that many members must exceed, for ``embedder``."""
    levels = _levels_of(chance_levels, embedder)

    def level(size: int) -> float:
        return float(levels[min(size, len(levels) - 1)])

    return level


def affinity_levels(reference: np.ndarray, quantile: float = QUANTILE, seed: int = 0) -> np.ndarray:
    """levels[m]: the ``quantile`` of one row's mean cosine to ``m`` others, all drawn at random
    from the unit rows of ``reference`` (m = 1 .. min(MAX_SIZE, rows - 1); levels[0] is 1.0)."""
    sims = reference @ reference.T
    rng = np.random.default_rng(seed)
    top = min(MAX_SIZE, len(reference) - 1)
    levels = np.ones(top + 1)
    for m in range(1, top + 1):
        picks = _subsets(rng, len(reference), m + 1)
        values = sims[picks[:, :1], picks[:, 1:]].mean(axis=1)
        levels[m] = float(np.percentile(values, quantile))
    return levels


def chance_affinity(embedder: Embedder) -> Callable[[int], float]:
    """m → the mean cosine to ``m`` texts that one text must exceed to be more like them than
    like texts about unrelated matters, for ``embedder`` (MiniLM: 0.33 for one, 0.18 for ten)."""
    levels = _levels_of(affinity_levels, embedder)

    def level(m: int) -> float:
        return float(levels[max(1, min(m, len(levels) - 1))])

    return level


def relevance_floor(embedder: Embedder, vector: np.ndarray, quantile: float) -> float:
    """How alike to ``vector`` (a query, embedded by ``embedder``) a text about an unrelated
    matter gets by chance: the ``quantile`` (50-100) of the query's cosines to
    ``unrelated.UNRELATED``, read off their normal fit (mean + z·sd) rather than their order
    statistics, so one or two reference texts that happen to share the query's topic move it
    little. A memory no more alike to the query than that is about something else."""
    unit = np.asarray(vector, np.float64) / max(float(np.linalg.norm(vector)), 1e-12)
    cosines = _reference(embedder) @ unit
    return float(cosines.mean() + NormalDist().inv_cdf(quantile / 100) * cosines.std())


def _reference(embedder: Embedder) -> np.ndarray:
    """``unrelated.UNRELATED`` embedded by ``embedder`` (unit rows), once per process and model."""
    with _lock:
        if embedder.model_id not in _references:
            _references[embedder.model_id] = unit_rows(embedder.embed(list(UNRELATED)))
        return _references[embedder.model_id]


def _levels_of(measure: Callable[[np.ndarray], np.ndarray], embedder: Embedder) -> np.ndarray:
    """``measure`` of ``unrelated.UNRELATED`` embedded by ``embedder``, once per process."""
    key = (measure.__name__, embedder.model_id)
    reference = _reference(embedder)
    with _lock:
        if key not in _levels:
            _levels[key] = measure(reference)
            log.debug("%s for %s: %s", measure.__name__, embedder.model_id, np.round(_levels[key], 3).tolist())
        return _levels[key]


def _subsets(rng: np.random.Generator, n: int, size: int) -> np.ndarray:
    """``SAMPLES`` random ``size``-subsets of range(n), a row each."""
    return np.argsort(rng.random((SAMPLES, n)), axis=1)[:, :size]


def above_chance(vectors: np.ndarray, level: Callable[[int], float]) -> bool:
    """True when the rows of ``vectors`` are more alike than chance for their number."""
    return len(vectors) < 2 or cohesion(unit_rows(vectors)) > level(len(vectors))
