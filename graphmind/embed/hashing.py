"""A deterministic feature-hashing embedder: no model, for unit tests and offline fallbacks.

A text is lowercased and split into Unicode words (``\\w+``). Its features are the words, the
pairs of adjacent words and the character 3-grams of each word padded with spaces. Each
feature is hashed with blake2b (stable across processes and machines, unlike ``hash``) to a
bucket and a sign; the signed, weighted counts are L2-normalised. Only the first 32,768
characters are read. A text with no word (empty, blank or punctuation only) gets one fixed
unit vector. Similar wording gives similar vectors; meaning does not.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from graphmind.embed._input import check_texts

VERSION = 1
MAX_CHARS = 32_768
_WORD = re.compile(r"\w+")
_NO_WORDS = "\x00no-words"
_WEIGHTS = {"w": 1.0, "b": 0.5, "c": 0.25}  # word, word pair, character 3-gram


class HashingEmbedder:
    """Signed feature hashing of words, word pairs and character 3-grams into ``dimensions``."""

    def __init__(self, dimensions: int = 384):
        self._dimensions = dimensions

    @property
    def model_id(self) -> str:
        return f"graphmind-hashing-v{VERSION}-{self._dimensions}"

    @property
    def dimensions(self) -> int:
        return self._dimensions

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One unit row per text, in order."""
        checked = check_texts(texts)
        out = np.zeros((len(checked), self._dimensions), dtype=np.float32)
        for row, text in enumerate(checked):
            out[row] = hash_vector(features(text), self._dimensions)
        return out


def features(text: str) -> list[tuple[str, float]]:
    """The weighted features of ``text`` (see the module docstring), in text order."""
    words = _WORD.findall(text[:MAX_CHARS].lower())
    found = [(f"w:{w}", _WEIGHTS["w"]) for w in words]
    found += [(f"b:{a} {b}", _WEIGHTS["b"]) for a, b in itertools.pairwise(words)]
    for word in words:
        padded = f" {word} "
        found += [(f"c:{padded[i : i + 3]}", _WEIGHTS["c"]) for i in range(len(padded) - 2)]
    return found or [(_NO_WORDS, 1.0)]


def hash_vector(weighted: list[tuple[str, float]], dimensions: int) -> np.ndarray:
    """The L2-normalised sum of the signed, weighted buckets of ``weighted`` features."""
    vector = np.zeros(dimensions, dtype=np.float64)
    for feature, weight in weighted:
        bucket, sign = _slot(feature, dimensions)
        vector[bucket] += sign * weight
    norm = np.linalg.norm(vector)
    if norm == 0:  # every feature cancelled out: fall back to the fixed vector
        return hash_vector([(_NO_WORDS, 1.0)], dimensions)
    return (vector / norm).astype(np.float32)


@lru_cache(maxsize=1 << 16)
def _slot(feature: str, dimensions: int) -> tuple[int, int]:
    """The bucket and sign (+1 or -1) of a feature, from 8 bytes of its blake2b digest."""
    value = int.from_bytes(hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest(), "little")
    return (value >> 1) % dimensions, 1 if value & 1 else -1
