"""Clustering a small batch by meaning: fewer experiences than the k-NN graph needs.

``clustering.cluster_vectors`` links each experience to its k ≥ 5 nearest; among 20 experiences
of eight techniques most of those links cross techniques, and Louvain returns two or three
grab-bags that later nights only grow (a new user's session-by-session trial; in
``bench/dream_sessions_quality.py`` sessions of 20 reached half the ARI of one dream). A batch
of fewer than ``DreamParams.ratio_min_experiences`` is clustered here instead: average-linkage
agglomerative clustering on cosine distance (SciPy's ``linkage``, as scikit-learn's
AgglomerativeClustering computes it), cut at the number of clusters with the best mean
silhouette (scikit-learn) of the distinct texts (twins, a technique told word for word of
several things once their names are cut, made a cut into pairs of twins look best: a crossed
log's sessions left 43% of it waiting), and a cluster is kept only when its members stand apart from the
rest of the batch (each member's silhouette above ``min_silhouette``: a tight core does not
carry a straggler along) and are as alike as one technique's experiences (cohesion, the mean
cosine to their centroid, ≥ ``whole``: ``DreamParams.strategy_min_cohesion``, 0.6; one
technique's experiences 0.59-0.83 on the crossed logs, a CLINC150 intent's 0.60-0.86 from the
5th to the 95th percentile). The others
are left one by one and wait for company: the next session's dream weighs them again, and
from 50 the k-NN graph takes over. A batch that is itself that alike splits only when its best
split stands clearly apart (``TIGHT_SPLIT``), else stays one, provided it has room for a split
at all: with fewer than two patterns' worth of rows (``2 * min_cluster_size``) no cut into two
groups of a pattern's size exists, so "no split" says nothing, and five notes of five jobs of
one trade would be one pattern by cohesion alone: such a batch waits for company, all of it
(not a part of it either). A new user's notebook dreamed every 5 entries (80 entries, 8
techniques, each first five another one) made one pattern of its first five that grew to 66
entries (technique ARI 0.013); with the rule, 0.353 (one dream: 0.66).
``bench/dream_sessions_quality.py``: sessions of 20 unchanged, of 6 unchanged but helpdesk
0.018 → 0.013; ``--size 5 --order interleaved`` crossed 0.372 (unchanged), ops 0.212 → 0.175,
workshop 0.127 → 0.165, helpdesk 0.010 → 0.052, transit 0.158 (unchanged).
"""

from __future__ import annotations

import numpy as np

from graphmind.dream.clustering import unit_rows
from graphmind.dream.items import centroid_of
from graphmind.dream.params import DreamParams

TIGHT_SPLIT = 0.25
"""The mean silhouette the best split of a tight batch needs: below it the batch is one
technique written in several ways. In ``bench/_small_batch_research.py`` 0.25 and 0.3 keep the
single-technique batches of the ops and workshop logs whole where 0.2 splits some; two
paraphrased HPLC techniques side by side (tests/integration/test_dream.py) reach 0.29."""


def small_batch_labels(vectors: np.ndarray, params: DreamParams) -> np.ndarray:
    """A label per row; a row in no cluster that stands apart gets a label of its own. Kept
    parts whose centroids are ``redundancy_similarity`` alike are one (the dream would prune
    one of the two patterns as the other's twin)."""
    min_silhouette, whole = params.small_batch_separation, params.strategy_min_cohesion
    from scipy.cluster.hierarchy import fcluster, linkage  # imported here: ~1 s at every CLI start
    from sklearn.metrics import silhouette_samples

    x = unit_rows(vectors)
    n = len(x)
    tight = n > 0 and _cohesion(x) >= whole
    if tight and n < 2 * params.min_cluster_size:
        return np.arange(n, dtype=np.int64)  # alike as a whole, too few for a split to show: all wait
    if n < 4:
        return np.zeros(n, np.int64) if tight else np.arange(n, dtype=np.int64)
    tree = linkage(x, method="average", metric="cosine")
    best, labels, widths = -1.0, np.arange(n), np.zeros(n)
    distinct = _distinct(x)
    judged = distinct if len(distinct) >= 3 else np.arange(n)  # two texts: judged on every row
    for k in range(2, n):
        found = fcluster(tree, k, criterion="maxclust")
        if not 2 <= len(np.unique(found[judged])) < len(judged):
            continue
        width = silhouette_samples(x, found, metric="cosine")
        # the cut is judged on distinct texts: twins (one technique told word for word of
        # several things, their names cut) would make a cut into pairs of twins look best
        fit = float(silhouette_samples(x[judged], found[judged], metric="cosine").mean())
        if fit > best:
            best, labels, widths = fit, found, width
    if tight and best < TIGHT_SPLIT:
        return np.zeros(n, np.int64)  # one technique: no split of it stands clearly apart
    out = np.arange(n, 2 * n, dtype=np.int64)  # alone unless in a part that stands apart
    parts = [(labels == label) & (widths > min_silhouette) for label in np.unique(labels)]  # no straggler
    kept = [m for m in parts if m.sum() > 1 and _cohesion(x[m]) >= whole]
    if not kept:
        return out - n
    for index, members in enumerate(_twins_joined(x, kept, params.redundancy_similarity)):
        out[members] = index
    return np.unique(out, return_inverse=True)[1].astype(np.int64)


def _twins_joined(x: np.ndarray, parts: list[np.ndarray], alike: float) -> list[np.ndarray]:
    """``parts`` (masks over the rows of ``x``), each joined to the first joined part whose
    centroid is at least ``alike`` to its own."""
    joined: list[np.ndarray] = []
    for part in parts:
        for k, other in enumerate(joined):
            if float(centroid_of(x[part]) @ centroid_of(x[other])) >= alike:
                joined[k] = other | part
                break
        else:
            joined.append(part)
    return joined


TWIN = 0.9999
"""Rows at least this alike are one text for the choice of the cut."""


def _distinct(x: np.ndarray) -> np.ndarray:
    """The first of each group of twin rows of the unit rows ``x`` (cosine ≥ ``TWIN``)."""
    first = np.argmax(x @ x.T >= TWIN, axis=1)
    return np.flatnonzero(first == np.arange(len(x)))


def _cohesion(x: np.ndarray) -> float:
    """The mean cosine of the unit rows ``x`` to their centroid."""
    return float(np.mean(x @ centroid_of(x)))
