"""One mind's embeddings held in memory, and exact nearest-neighbour search over them (pure)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from graphmind.recall._logic import Ranked
from graphmind.recall.partition import Partition

GROWTH_SHARE = 8
"""A full copy grows by 1/GROWTH_SHARE of its rows, and is loaded only with that much room in
the memory budget (vector_cache.py), so the writes that follow a load do not push it out."""
GROWTH_MIN_ROWS = 1024


@dataclass(frozen=True)
class VectorWrite:
    """Embeddings the embedding pass stored in one transaction, and the mind's vector stamp
    before (``previous``) and after (``stamp``) it."""

    uids: list[str]
    labels: list[str]
    vectors: np.ndarray
    previous: str | None
    stamp: str
    replaced_stale: int = 0
    """How many of ``uids`` had an embedding by another model before."""


@dataclass
class MindVectors:
    """The embeddings of one mind by one model, as of vector stamp ``stamp``.

    Rows are unit vectors; ``size`` rows of ``matrix`` are in use (it grows by doubling, so
    applying a write of new memories costs the new rows, not a copy of all of them). A large copy
    carries a ``partition`` (partition.py), and its rows are then sorted by list.
    """

    stamp: str
    model_id: str
    stale: int
    matrix: np.ndarray
    uids: list[str] = field(default_factory=list)
    label_codes: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int16))
    label_names: list[str] = field(default_factory=list)
    rows: dict[str, int] = field(default_factory=dict)
    _label_rows: dict[tuple[int, ...], np.ndarray] = field(default_factory=dict, repr=False)
    partition: Partition | None = None
    replaced_log: list[int] | None = field(default=None, repr=False)
    """Rows replaced while lists are built in the background (None: not recording)."""

    @property
    def size(self) -> int:
        return len(self.uids)

    @property
    def nbytes(self) -> int:
        return int(self.matrix.nbytes + self.label_codes.nbytes)

    def add(self, uid: str, label: str, vector: Sequence[float] | np.ndarray, max_rows: int | None = None) -> None:
        """Store (or replace) the embedding of ``uid``; growing, hold at most ``max_rows`` rows'
        room unless more are needed (the memory budget's share of this copy)."""
        row = self.rows.get(uid)
        unit = _unit(np.asarray(vector, dtype=np.float32))
        if row is None:
            row = self.size
            self._reserve(row + 1, max_rows)
            self.rows[uid] = row
            self.uids.append(uid)
        else:
            if self.partition is not None:
                self.partition.replaced(row, unit)
            if self.replaced_log is not None:
                self.replaced_log.append(row)
        self.matrix[row] = unit
        self.label_codes[row] = self._label_code(label)
        self._label_rows.clear()

    def rows_of(self, codes: tuple[int, ...]) -> np.ndarray:
        """The rows holding one of the label ``codes`` (kept until the next ``add``)."""
        if codes not in self._label_rows:
            self._label_rows[codes] = np.flatnonzero(np.isin(self.label_codes[: self.size], codes))
        return self._label_rows[codes]

    def partition_by(self, order: np.ndarray, partition: Partition) -> None:
        """Reorder the first ``len(order)`` rows by ``order`` and search them through ``partition``
        (partition.build's result for those rows)."""
        n = len(order)
        self.matrix[:n] = self.matrix[order]
        self.label_codes[:n] = self.label_codes[order]
        self.uids[:n] = [self.uids[i] for i in order]
        self.rows = {uid: row for row, uid in enumerate(self.uids)}
        self._label_rows.clear()
        self.partition = partition

    def apply(self, write: VectorWrite, max_rows: int | None = None) -> None:
        """Apply the pass's write that moved the stamp from this copy's stamp to the next."""
        for uid, label, vector in zip(write.uids, write.labels, write.vectors, strict=True):
            self.add(uid, label, vector, max_rows)
        self.stale = max(0, self.stale - write.replaced_stale)
        self.stamp = write.stamp

    def _reserve(self, rows: int, max_rows: int | None = None) -> None:
        """Room for ``rows``: an eighth more than now (at least 1,024 rows), within ``max_rows``
        when ``rows`` fit in it. Doubling would make a copy that filled its budget twice its size
        on its first new row, and the cache would drop it."""
        if rows <= len(self.matrix):
            return
        capacity = max(rows, len(self.matrix) + max(GROWTH_MIN_ROWS, len(self.matrix) // GROWTH_SHARE))
        if max_rows is not None and rows <= max_rows:  # beyond it the cache drops the copy: grow as usual
            capacity = min(capacity, max_rows)
        matrix = np.zeros((capacity, self.matrix.shape[1]), dtype=np.float32)
        matrix[: self.size] = self.matrix[: self.size]
        codes = np.zeros(capacity, dtype=np.int16)
        codes[: self.size] = self.label_codes[: self.size]
        self.matrix, self.label_codes = matrix, codes

    def _label_code(self, label: str) -> int:
        if label not in self.label_names:
            self.label_names.append(label)
        return self.label_names.index(label)


def empty_vectors(stamp: str, model_id: str, dimensions: int, *, capacity: int = 0, stale: int = 0) -> MindVectors:
    """A copy with room for ``capacity`` rows and none in use."""
    return MindVectors(
        stamp=stamp,
        model_id=model_id,
        stale=stale,
        matrix=np.zeros((capacity, dimensions), dtype=np.float32),
        label_codes=np.zeros(capacity, dtype=np.int16),
    )


def nearest(vectors: MindVectors, query: np.ndarray, labels: Sequence[str] | None, depth: int) -> list[Ranked]:
    """The ``depth`` rows most similar to ``query`` (of ``labels``, if given), best first.

    Scores are on the vector index's scale, (1 + cosine) / 2, so both paths fuse alike.
    """
    query = _unit(np.asarray(query, dtype=np.float32))
    rows = None
    if labels is not None:
        codes = tuple(sorted(vectors.label_names.index(x) for x in set(labels) if x in vectors.label_names))
        rows = vectors.rows_of(codes)
    few = rows is not None and 2 * len(rows) < vectors.size
    if vectors.partition is not None and not few:
        # the lists hold mostly the asked labels' rows: probe as if for depth / their share
        share = 1.0 if rows is None else max(len(rows), 1) / vectors.size
        return _nearest_in_lists(vectors, vectors.partition, query, labels, depth, math.ceil(depth / share))
    if rows is None:
        scores = vectors.matrix[: vectors.size] @ query
    elif few:  # a few labels: compare only their rows (a copy of them), lists or not
        scores = vectors.matrix[rows] @ query
    else:  # most rows: one product over all of them is cheaper than copying most of them
        scores = (vectors.matrix[: vectors.size] @ query)[rows]
    if len(scores) == 0:
        return []
    depth = min(depth, len(scores))
    top = np.argpartition(-scores, depth - 1)[:depth]
    top = top[np.argsort(-scores[top], kind="stable")]
    return [Ranked(vectors.uids[i if rows is None else rows[i]], float((1.0 + scores[i]) / 2.0)) for i in top]


def _nearest_in_lists(
    vectors: MindVectors,
    partition: Partition,
    query: np.ndarray,
    labels: Sequence[str] | None,
    depth: int,
    probe_depth: int,
) -> list[Ranked]:
    rows, scores = partition.scan(vectors.matrix, vectors.size, query, probe_depth)
    if labels is not None:
        codes = [vectors.label_names.index(x) for x in set(labels) if x in vectors.label_names]
        keep = np.isin(vectors.label_codes[rows], codes)
        rows, scores = rows[keep], scores[keep]
    if len(scores) == 0:
        return []
    wanted = min(depth + len(partition.misplaced), len(scores))  # a misplaced row can come twice
    top = np.argpartition(-scores, wanted - 1)[:wanted]
    top = top[np.argsort(-scores[top], kind="stable")]
    found: dict[int, Ranked] = {}
    for i in top:
        row = int(rows[i])
        if row not in found and len(found) < depth:
            found[row] = Ranked(vectors.uids[row], float((1.0 + scores[i]) / 2.0))
    return list(found.values())


def _unit(vector: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else vector
