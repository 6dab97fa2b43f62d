"""Embedders: the default pretrained model and a deterministic hashing fallback."""

from graphmind.embed.base import Embedder

__all__ = ["Embedder"]
