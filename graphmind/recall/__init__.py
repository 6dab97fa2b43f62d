"""Recall: the embedding pass that fills the vector index, and hybrid search over one mind."""

from graphmind.recall.embed_pass import EmbeddingPass, EmbedReport
from graphmind.recall.recaller import Recaller, RecallHit, RecallResult, StaleEmbeddingsWarning

__all__ = ["EmbedReport", "EmbeddingPass", "RecallHit", "RecallResult", "Recaller", "StaleEmbeddingsWarning"]
