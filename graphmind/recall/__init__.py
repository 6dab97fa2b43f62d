"""Recall: the embedding pass that fills the vector index, and hybrid search over one mind."""

from graphmind.recall.embed_pass import EmbeddingPass, EmbedReport
from graphmind.recall.recaller import (
    Candidates,
    Recaller,
    RecallHit,
    RecallResult,
    ReembeddedWarning,
    StaleEmbeddingsWarning,
)

__all__ = [
    "Candidates",
    "EmbedReport",
    "EmbeddingPass",
    "RecallHit",
    "RecallResult",
    "Recaller",
    "ReembeddedWarning",
    "StaleEmbeddingsWarning",
]
