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
