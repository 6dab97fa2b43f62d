"""Clustering for the dream's compression phase: patterns (level 1) and their groups (levels 2+).

Method (numpy, with scikit-learn's TF-IDF; deterministic for a given ``seed``):

1. k-nearest-neighbour graph. Similarity = cosine of the (re-normalised) vectors, mixed with the
   TF-IDF cosine of the texts when texts are given (``alpha`` = 0.3; scikit-learn's TfidfVectorizer,
   word tokens, sublinear tf):
   the 3k nearest by vector are re-ranked by the mixed similarity and the best k kept.
   k = round(sqrt(n) / 3) clipped to [5, 50] (and < n): neighbourhoods grow with the data so
   that a large pattern stays one dense region instead of a chain of small ones.
   Edge weight = similarity / the node's best similarity (local scaling), symmetrised by max.
2. Louvain modularity communities with resolution g chosen by a fixed point g = q * C_eff(g),
   C_eff = 1 / sum(share of edge volume per community ** 2) (effective number of communities),
   q = 0.25. In words: two groups stay apart unless more than about q of one's links go to the
   other; unlike a fixed resolution this does not depend on n or on the number of clusters.
   Where the data has no scale of its own the fixed point keeps rising (C_eff grows with g):
   on two intent sets written for the tests, less separable than CLINC150, it ran to ~2
   utterances a community, a fifth of them in none of 3 or more. There (and only there: a
   small batch of 4 topics x 5 keeps its 4 communities) the compression phase caps the
   communities (``max_clusters``: one per target_ratio x (1 - tolerance) experiences, 7 with
   the spec's 10:1 ± 30%) by lowering g.
3. ``group_clusters`` runs the same graph + Louvain on cluster centroids (mixing the TF-IDF of
   the member texts), at plain modularity (g = 1) with k = 8: coarse, few groups. Inputs that
   end alone are attached to their nearest neighbour's group; 2-3 inputs (or a graph with no
   structure) become one group, so every call merges something when given >= 2 inputs.

Measured on CLINC150 (first 10 training utterances of each of 75 intents = 750, 5 domains,
MiniLM; seeds 0-4): level 1 ARI vs intents 0.787 +- 0.005 with ~80 clusters (MiniLM + Ward
*given* k = 75: 0.67); level 2 ARI vs domains 0.52 +- 0.05 (Ward given k = 5: 0.44) - below the
0.6 target: even k-means/spectral given k = 5 on the true intent centroids reach only ~0.5, the
domains are not separable in MiniLM space, nor in all-mpnet-base-v2's (level 2: 0.49;
bench/RESULTS.md). n = 10,000 x 384 with texts: ~4 s, ~110 MB peak.
Reproduce: ``python bench/_cluster_research.py --sensitivity --battery --scale``.
"""

from __future__ import annotations

import math
import re
from collections import deque
from collections.abc import Sequence
from typing import Any

import numpy as np

LEVEL1 = {"k": None, "q": 0.25, "resolution": None, "alpha": 0.3, "candidates": 3}
LEVEL2 = {"k": 8, "resolution": 1.0, "alpha": 0.3, "candidates": 3}
_TOKEN = re.compile(r"\b\w\w+\b")
CAP_STEPS = 8
"""Bisection steps of the resolution when ``max_clusters`` binds."""
DUST_SIZE, DUST_SHARE = 3, 0.05
"""The q rule found no scale when more than DUST_SHARE of the rows end in communities of fewer
than DUST_SIZE: 0-1.7% on CLINC150 slices of 5-40 per intent, the crossed logs and small
batches of 3-6 per topic, 0.5-3.9% with CLINC150's vectors blurred by noise of up to 1.2 times
their length (ARI 0.80 -> 0.64); 55-77% at 1.5 times, 68-70% on 210 x 48 vectors with no
groups. Counted on the rows the caller labels (``counted``), not on near-duplicates added to the
graph, which sit by their twin and would hide it."""
MIN_RESOLUTION = 1e-3
_BLOCK_BYTES = 4 << 20  # similarity rows computed at once (argpartition adds twice as much in int64)


def cluster_vectors(
    vectors: np.ndarray,
    texts: Sequence[str] | None = None,
    *,
    min_cluster_size: int = 3,
    max_clusters: float | None = None,
    counted: int | None = None,
    seed: int = 0,
    **tuning: Any,
) -> np.ndarray:
    """Labels 0..C-1 for each row (largest cluster first), -1 for rows in no cluster of at least
    ``min_cluster_size``. ``max_clusters`` caps the communities of the q rule where it finds
    no scale of its own (more than ``DUST_SHARE`` of the rows in communities smaller than
    ``DUST_SIZE``): the resolution is lowered until there are no more, or none of them is
    linked to another (Louvain never joins parts of the graph that no edge links); a fixed
    ``resolution`` ignores it. ``counted``: only the first rows count for the cap and the dust
    (the rest, near-duplicates that only add links, would hide it). Tuning: k (neighbours,
    default sqrt(n)/3 in [5, 50]), q (default 0.25; higher = finer), resolution (fixed Louvain
    resolution instead of the q rule), alpha (TF-IDF weight, 0.3), candidates (neighbours by
    vector re-ranked with the texts, per k: 3)."""
    opts = _options(LEVEL1, tuning)
    x = unit_rows(vectors)
    n = len(x)
    if n < 2:
        return _finish(np.zeros(n, np.int64), min_cluster_size)
    k = opts["k"] or int(np.clip(round(math.sqrt(n) / 3), 5, 50))
    rows, cols, w = _knn_graph(x, texts, k, opts["alpha"], opts["candidates"])
    labels = (
        _auto_louvain(n, rows, cols, w, opts["q"], seed, max_clusters, n if counted is None else counted)
        if opts["resolution"] is None
        else _louvain(n, rows, cols, w, opts["resolution"], seed)
    )
    return _finish(labels, min_cluster_size)


def group_clusters(
    centroids: np.ndarray,
    member_texts: Sequence[Sequence[str]] | None = None,
    *,
    sizes: Sequence[int] | None = None,
    seed: int = 0,
    **tuning: Any,
) -> np.ndarray:
    """Labels 0..G-1 for each cluster, G < number of clusters whenever there are >= 2.

    1 input: [0]; 2 or 3 inputs: one group. Otherwise Louvain (resolution 1, tuning
    ``resolution``) on a k-NN graph (k = 8) of the centroids; a cluster left alone joins its
    nearest neighbour's group. ``sizes`` only breaks ties (bigger groups get lower labels)."""
    opts = _options(LEVEL2, tuning)
    x = unit_rows(centroids)
    n = len(x)
    if n <= 3:
        return np.zeros(n, np.int64)
    texts = None if member_texts is None else [" ".join(t) for t in member_texts]
    rows, cols, w = _knn_graph(x, texts, min(opts["k"], n - 1), opts["alpha"], opts["candidates"])
    labels = _louvain(n, rows, cols, w, opts["resolution"], seed)
    labels = _attach_singletons(labels, rows, cols, w)
    if labels.max() + 1 == n:  # no structure at all: merge the closest pair
        a, b = (rows[np.argmax(w)], cols[np.argmax(w)]) if len(w) else (0, 1)
        labels[b] = labels[a]
    return _relabel(labels, None if sizes is None else np.asarray(sizes, float))


def _options(defaults: dict[str, Any], tuning: dict[str, Any]) -> dict[str, Any]:
    unknown = set(tuning) - set(defaults)
    if unknown:
        raise TypeError(f"unknown tuning option(s): {sorted(unknown)}")
    return {**defaults, **tuning}


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    """The rows of ``vectors`` as float32 scaled to unit length (a zero row stays zero)."""
    x = np.asarray(vectors, dtype=np.float32)
    if x.ndim != 2 or not np.isfinite(x).all():
        raise ValueError("vectors must be a finite 2-D array")
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.where(norms > 0, norms, 1)


# --- k-NN graph -----------------------------------------------------------------------------


def _knn_graph(
    x: np.ndarray, texts: Sequence[str] | None, k: int, alpha: float, candidates: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Undirected weighted edges (rows < cols) of the symmetrised k-NN graph."""
    n = len(x)
    k = min(k, n - 1)
    mix = texts is not None and alpha > 0
    nb, sim = _nearest(x, min(n - 1, k * candidates) if mix else k)
    if texts is not None and mix:
        if len(texts) != n:
            raise ValueError("texts and vectors differ in length")
        src = np.repeat(np.arange(n), nb.shape[1])
        text_sim = _pair_dots(_tfidf(texts), src, nb.ravel()).reshape(nb.shape)
        sim = (1 - alpha) * sim + alpha * text_sim
        order = np.argsort(-sim, axis=1, kind="stable")[:, :k]
        nb, sim = np.take_along_axis(nb, order, 1), np.take_along_axis(sim, order, 1)
    top = np.maximum(sim[:, :1], 1e-12)
    w = np.clip(sim / top, 0, None).ravel()  # local scaling: 1 for the nearest neighbour
    src = np.repeat(np.arange(n), k)
    lo, hi = np.minimum(src, nb.ravel()), np.maximum(src, nb.ravel())
    key, inv = np.unique(lo.astype(np.int64) * n + hi, return_inverse=True)
    weight = np.zeros(len(key))
    np.maximum.at(weight, inv, w)
    keep = weight > 0
    return key[keep] // n, key[keep] % n, weight[keep]


def _nearest(x: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices and cosines of each row's k nearest other rows, best first (blockwise)."""
    n = len(x)
    block = max(1, _BLOCK_BYTES // (4 * n))
    nbs, sims = [], []
    for a in range(0, n, block):
        s = x[a : a + block] @ x.T
        s[np.arange(len(s)), np.arange(a, a + len(s))] = -np.inf
        idx = np.argpartition(s, n - k, axis=1)[:, n - k :]
        val = np.take_along_axis(s, idx, 1)
        order = np.argsort(-val, axis=1, kind="stable")
        nbs.append(np.take_along_axis(idx, order, 1))
        sims.append(np.take_along_axis(val, order, 1).astype(np.float64))
    return np.vstack(nbs), np.vstack(sims)


def _tfidf(texts: Sequence[str]) -> Any:
    """Sublinear-tf TF-IDF rows (smooth idf, L2-normalised) of word tokens, scikit-learn's."""
    from sklearn.feature_extraction.text import TfidfVectorizer  # imported here: ~2 s at every CLI start

    return TfidfVectorizer(token_pattern=_TOKEN.pattern, sublinear_tf=True, dtype=np.float64).fit_transform(
        [str(t) for t in texts]
    )


def _pair_dots(x: Any, a: np.ndarray, b: np.ndarray, chunk: int = 65536) -> np.ndarray:
    """TF-IDF cosine of each pair (a[i], b[i]) of rows of the sparse matrix ``x``, ``chunk``
    pairs at a time (10,000 rows x 100 candidate pairs each held ~100 MB of row copies at once)."""
    out = np.zeros(len(a))
    for start in range(0, len(a), chunk):
        end = start + chunk
        out[start:end] = np.asarray(x[a[start:end]].multiply(x[b[start:end]]).sum(axis=1)).ravel()
    return out


# --- Louvain --------------------------------------------------------------------------------


def _auto_louvain(
    n: int,
    rows: np.ndarray,
    cols: np.ndarray,
    w: np.ndarray,
    q: float,
    seed: int,
    max_clusters: float | None = None,
    counted: int | None = None,
    max_iter: int = 12,
) -> np.ndarray:
    """Louvain at the resolution g where g = q * (effective number of communities); with
    ``max_clusters``, where that leaves dust (``DUST_SHARE``), at most that many communities:
    the resolution is lowered (bisection on log g between resolutions already tried) to the
    highest found that gives no more. Only the first ``counted`` rows count (all by default)."""
    counted = n if counted is None else counted

    def communities(labels: np.ndarray) -> int:
        return len(np.unique(labels[:counted]))

    degree = np.bincount(rows, w, n) + np.bincount(cols, w, n)
    g, over = 1.0, np.inf
    low, best = MIN_RESOLUTION, None  # the highest resolution tried within max_clusters
    for _ in range(max_iter):
        labels = _louvain(n, rows, cols, w, g, seed)
        if max_clusters is not None:
            if communities(labels) > max_clusters:
                over = min(over, g)
            elif g > low:
                low, best = g, labels
        volume = np.bincount(labels, degree)
        share = volume / volume.sum() if volume.sum() > 0 else np.ones(1)
        new = max(q / float(np.sum(share**2)), MIN_RESOLUTION)
        if abs(new - g) <= 0.05 * g:
            break
        g = new
    if max_clusters is None or communities(labels) <= max_clusters or _dust(labels[:counted]) <= DUST_SHARE:
        return labels
    if best is None:
        best = _louvain(n, rows, cols, w, low, seed)
        if communities(best) > max_clusters:
            return best  # parts no edge links: no resolution joins them
    for _ in range(CAP_STEPS):
        if over / low < 1.1:
            break
        mid = math.sqrt(low * over)
        found = _louvain(n, rows, cols, w, mid, seed)
        if communities(found) <= max_clusters:
            low, best = mid, found
        else:
            over = mid
    return best


def _dust(labels: np.ndarray) -> float:
    """The share of rows in communities of fewer than DUST_SIZE."""
    return float((np.bincount(labels)[labels] < DUST_SIZE).mean()) if len(labels) else 0.0


def _louvain(n: int, rows: np.ndarray, cols: np.ndarray, w: np.ndarray, resolution: float, seed: int) -> np.ndarray:
    """Modularity communities (Blondel et al. 2008): local moves, then aggregation, repeated.

    Kept beside networkx's ``louvain_communities``: on the same graphs it finds the same
    communities (tests/unit/test_dream_clustering.py: ARI >= 0.9, modularity within 0.02) and
    is ~4x faster (CLINC150's 750 utterances: 0.15-0.24 s vs 0.70-0.91 s for cluster_vectors,
    ``python bench/_cluster_research.py --louvain``); in the dream it scores CLINC150's
    intents better (pattern ARI 0.75-0.77 vs 0.73 over seeds 0-2)."""
    rng = np.random.default_rng(seed)
    labels: np.ndarray = np.arange(n)
    loops: np.ndarray = np.zeros(n)
    rows, cols, w = np.asarray(rows, np.int64), np.asarray(cols, np.int64), np.asarray(w, float)
    while True:
        part = _local_moves(n, rows, cols, w, loops, resolution, rng)
        size = int(part.max()) + 1 if n else 0
        if size == n:
            return labels
        labels = part[labels]
        a, b = part[rows], part[cols]
        inside = a == b
        loops = np.bincount(part, loops, size) + np.bincount(a[inside], w[inside], size)
        lo, hi = np.minimum(a[~inside], b[~inside]), np.maximum(a[~inside], b[~inside])
        key, inv = np.unique(lo * size + hi, return_inverse=True)
        rows, cols, w, n = key // size, key % size, np.bincount(inv, w[~inside]), size


def _local_moves(
    n: int,
    rows: np.ndarray,
    cols: np.ndarray,
    w: np.ndarray,
    loops: np.ndarray,
    resolution: float,
    rng: np.random.Generator,
) -> np.ndarray:
    """One Louvain phase: move nodes to the neighbouring community of best modularity gain."""
    src, dst, wt = np.concatenate([rows, cols]), np.concatenate([cols, rows]), np.concatenate([w, w])
    degree = (np.bincount(src, wt, n) + 2 * loops).tolist()
    order = np.argsort(src, kind="stable")
    ptr = np.searchsorted(src[order], np.arange(n + 1)).tolist()
    dst, wt = dst[order].tolist(), wt[order].tolist()
    total = float(sum(degree))
    if total <= 0:
        return np.arange(n)
    comm, tot, scale = list(range(n)), list(degree), resolution / total
    queue = deque(rng.permutation(n).tolist())  # fast local moves: revisit only disturbed nodes
    queued = [True] * n
    while queue:
        i = queue.popleft()
        queued[i] = False
        links: dict[int, float] = {}
        for p in range(ptr[i], ptr[i + 1]):
            c = comm[dst[p]]
            links[c] = links.get(c, 0.0) + wt[p]
        ci, ki = comm[i], degree[i]
        tot[ci] -= ki  # gain of joining c: links to c - resolution * ki * tot[c] / total
        best, gain = ci, links.get(ci, 0.0) - scale * ki * tot[ci]
        for c, link in links.items():
            g = link - scale * ki * tot[c]
            if g > gain + 1e-12:
                best, gain = c, g
        tot[best] += ki
        if best != ci:
            comm[i] = best
            for p in range(ptr[i], ptr[i + 1]):
                j = dst[p]
                if not queued[j] and comm[j] != best:
                    queued[j] = True
                    queue.append(j)
    return np.unique(np.asarray(comm), return_inverse=True)[1]


# --- labels ---------------------------------------------------------------------------------


def _attach_singletons(labels: np.ndarray, rows: np.ndarray, cols: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Each community of one node joins the community of its most similar neighbour."""
    labels = labels.copy()
    for node in np.flatnonzero(np.bincount(labels)[labels] == 1):
        edges = np.flatnonzero((rows == node) | (cols == node))
        if len(edges):
            e = edges[np.argmax(w[edges])]
            other = cols[e] if rows[e] == node else rows[e]
            labels[node] = labels[other]
    return np.unique(labels, return_inverse=True)[1]


def _relabel(labels: np.ndarray, sizes: np.ndarray | None = None) -> np.ndarray:
    """0 for the largest group (by total size, then first member), 1 for the next, ..."""
    labels = np.unique(labels, return_inverse=True)[1]
    mass = np.bincount(labels, sizes)
    first = np.full(len(mass), len(labels))
    np.minimum.at(first, labels, np.arange(len(labels)))
    order = np.lexsort((first, -mass))
    return np.argsort(order)[labels]


def _finish(labels: np.ndarray, min_cluster_size: int) -> np.ndarray:
    labels = _relabel(labels)
    small = np.bincount(labels)[labels] < min_cluster_size
    kept = _relabel(labels[~small]) if (~small).any() else labels[:0]
    out = np.full(len(labels), -1, np.int64)
    out[~small] = kept
    return out
