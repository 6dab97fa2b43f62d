"""The Embedder protocol: text in, L2-normalised float32 vectors out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into vectors for the ``memory_embedding`` vector index.

    ``embed`` returns a ``(len(texts), dimensions)`` float32 array whose rows have unit L2
    norm, batching internally; equal texts give equal rows. ``model_id`` names the model and
    its version: it is stored on every embedded node so that a model change is detected.
    """

    @property
    def model_id(self) -> str: ...

    @property
    def dimensions(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


class CachingEmbedder:
    """An embedder that remembers the vectors of the last ``size`` texts it embedded, first in
    first out (a wander meets the same concepts and theme sets again and again); new texts are
    embedded in one batch."""

    def __init__(self, inner: Embedder, size: int = 4096):
        self._inner, self._size = inner, size
        self._vectors: dict[str, np.ndarray] = {}

    @property
    def model_id(self) -> str:
        return self._inner.model_id

    @property
    def dimensions(self) -> int:
        return self._inner.dimensions

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        found = {t: self._vectors[t] for t in dict.fromkeys(texts) if t in self._vectors}
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        if missing:
            found.update(zip(missing, self._inner.embed(missing), strict=True))
            for text in missing[-self._size :] if self._size > 0 else []:  # after the batch is answered
                if len(self._vectors) >= self._size:
                    self._vectors.pop(next(iter(self._vectors)))
                self._vectors[text] = found[text].copy()  # not a view holding the whole batch
        return np.stack([found[t] for t in texts])
