"""Inverted lists over a large mind's vectors, so an in-memory search scans the lists nearest
the query instead of every row: the coarse stage of an IVF index (pure).

Lists are k-means centroids (scikit-learn's ``KMeans`` on a sample, about √n lists). A copy's
rows are sorted by list, so scanning a list is one contiguous matrix product. How many lists a
search probes is calibrated on the mind's own rows when the lists are built: the fewest that
find ``TARGET_RECALL`` of the exact ``CALIBRATION_DEPTH`` nearest neighbours of sampled rows.
A deeper search probes proportionally more lists. Rows added after the build (the tail) and rows
whose replaced vector belongs to another list (misplaced) are scanned on every search.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

PARTITION_MIN = 50_000
"""Rows from which a copy is partitioned: below, the exact product costs a few milliseconds."""
TARGET_RECALL = 0.95
"""The share of the exact nearest neighbours the calibrated probe count must find."""
CALIBRATION_DEPTH = 20
"""The depth the probe count is calibrated at (turn recall seeds its expansion with 20 hits)."""
CALIBRATION_QUERIES = 200
SAMPLE_PER_LIST = 40
"""Rows of the training sample per list."""
UNSORTED_SHARE = 0.1
"""The share of unsorted rows (tail and misplaced) past which the lists are built again."""
_CHUNK = 65_536


@dataclass
class Partition:
    """Lists over the first ``offsets[-1]`` rows of a copy, which are sorted by list."""

    centroids: np.ndarray
    """One unit row per list."""
    offsets: np.ndarray
    """List ``i`` holds the sorted rows ``offsets[i]`` to ``offsets[i + 1]``."""
    nprobe: int
    recall: float
    """The recall the calibration measured at ``nprobe``."""
    misplaced: set[int] = field(default_factory=set)

    @property
    def lists(self) -> int:
        return len(self.centroids)

    @property
    def sorted_rows(self) -> int:
        return int(self.offsets[-1])

    def list_of_row(self, row: int) -> int:
        return int(np.searchsorted(self.offsets, row, side="right")) - 1

    def unsorted(self, size: int) -> int:
        return size - self.sorted_rows + len(self.misplaced)

    def stale(self, size: int) -> bool:
        """True when so many rows are scanned outside the lists that they should be built again."""
        return self.unsorted(size) > UNSORTED_SHARE * max(self.sorted_rows, 1)

    def replaced(self, row: int, vector: np.ndarray) -> None:
        """Note that sorted ``row`` now holds ``vector``: if another list is nearer, it is misplaced."""
        if row < self.sorted_rows and row not in self.misplaced:
            if int(np.argmax(self.centroids @ vector)) != self.list_of_row(row):
                self.misplaced.add(row)

    def probes(self, query: np.ndarray, depth: int) -> np.ndarray:
        """The lists a search for ``depth`` rows scans: the nearest to ``query``."""
        count = min(self.lists, self.nprobe * max(1, math.ceil(depth / CALIBRATION_DEPTH)))
        sims = self.centroids @ query
        if count >= self.lists:
            return np.arange(self.lists)
        return np.argpartition(-sims, count - 1)[:count]

    def scan(self, matrix: np.ndarray, size: int, query: np.ndarray, depth: int) -> tuple[np.ndarray, np.ndarray]:
        """(rows, scores): the rows of the probed lists, the tail and the misplaced rows, with their
        cosine to ``query``. A misplaced row can appear twice."""
        spans = [(int(self.offsets[i]), int(self.offsets[i + 1])) for i in self.probes(query, depth)]
        spans.append((self.sorted_rows, size))
        rows = [np.arange(a, b) for a, b in spans if b > a]
        scores = [matrix[a:b] @ query for a, b in spans if b > a]
        if self.misplaced:
            extra = np.fromiter(self.misplaced, dtype=np.int64, count=len(self.misplaced))
            rows.append(extra)
            scores.append(matrix[extra] @ query)
        if not rows:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        return np.concatenate(rows), np.concatenate(scores)


def assign_lists(matrix: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    """The nearest centroid of each row, computed in chunks."""
    out = np.empty(len(matrix), dtype=np.int32)
    for start in range(0, len(matrix), _CHUNK):
        out[start : start + _CHUNK] = np.argmax(matrix[start : start + _CHUNK] @ centroids.T, axis=1)
    return out


def build(matrix: np.ndarray, seed: int = 0) -> tuple[np.ndarray, Partition]:
    """Lists over ``matrix`` (unit rows): the row order that sorts the rows by list, and the
    partition as it holds after that reordering, its probe count calibrated."""
    from sklearn.cluster import KMeans  # imported here: a CLI start should not pay for it

    n = len(matrix)
    lists = max(1, round(math.sqrt(n)))
    rng = np.random.default_rng(seed)
    sample = matrix[np.sort(rng.choice(n, size=min(n, SAMPLE_PER_LIST * lists), replace=False))]
    kmeans = KMeans(n_clusters=lists, init="random", n_init=1, max_iter=10, random_state=seed).fit(sample)
    centroids = _units(kmeans.cluster_centers_.astype(np.float32))
    assigned = assign_lists(matrix, centroids)
    order = np.argsort(assigned, kind="stable")
    by_list = assigned[order]
    offsets = np.searchsorted(by_list, np.arange(lists + 1)).astype(np.int64)
    partition = Partition(centroids, offsets, nprobe=lists, recall=1.0)
    partition.nprobe, partition.recall = calibrate(matrix, order, by_list, partition, rng)
    return order, partition


def calibrate(
    matrix: np.ndarray, order: np.ndarray, by_list: np.ndarray, partition: Partition, rng: np.random.Generator
) -> tuple[int, float]:
    """The fewest probes that find TARGET_RECALL of sampled rows' exact neighbours, and that recall.

    A sampled row is its own nearest neighbour: it is left out of what counts as found. ``by_list``
    is the list of each row in sorted order (``order``)."""
    n = len(matrix)
    depth = min(CALIBRATION_DEPTH, n - 1)
    if depth < 1 or partition.lists == 1:
        return partition.lists, 1.0
    queries = matrix[rng.choice(n, size=min(n, CALIBRATION_QUERIES), replace=False)]
    # the exact score of each query's depth-th neighbour (its own row, scored 1, comes first)
    best = np.full((len(queries), depth + 1), -np.inf, dtype=np.float32)
    for start in range(0, n, _CHUNK):
        scores = queries @ matrix[order[start : start + _CHUNK]].T
        best = -np.partition(-np.hstack([best, scores]), depth, axis=1)[:, : depth + 1]
    threshold = np.min(best, axis=1)
    # how many rows at or above the threshold each list holds, per query
    found = np.zeros((len(queries), partition.lists), dtype=np.int64)
    for start in range(0, n, _CHUNK):
        scores = queries @ matrix[order[start : start + _CHUNK]].T
        lists = by_list[start : start + _CHUNK]
        for q in range(len(queries)):
            found[q] += np.bincount(lists[scores[q] >= threshold[q]], minlength=partition.lists)
    ranked = np.argsort(-(queries @ partition.centroids.T), axis=1)
    reached = np.cumsum(np.take_along_axis(found, ranked, axis=1), axis=1) - 1  # less the row itself
    recall = np.minimum(reached, depth).mean(axis=0) / depth
    enough = np.flatnonzero(recall >= TARGET_RECALL)
    nprobe = int(enough[0]) + 1 if len(enough) else partition.lists
    return nprobe, float(recall[nprobe - 1])


def _units(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1.0)
