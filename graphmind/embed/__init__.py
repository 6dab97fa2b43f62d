"""Embedders: the default pretrained model and a deterministic hashing fallback.

Importing this package loads no weights: ``MiniLMEmbedder`` reads them on its first ``embed``.
"""

from graphmind.embed.base import CachingEmbedder, Embedder
from graphmind.embed.hashing import HashingEmbedder
from graphmind.embed.minilm import MiniLMEmbedder

__all__ = ["CachingEmbedder", "Embedder", "HashingEmbedder", "MiniLMEmbedder"]
