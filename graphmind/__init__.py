"""graphmind: a Neo4j-backed knowledge-graph memory engine for LLM agents."""

from graphmind.config import Settings
from graphmind.dream import DreamParams, DreamReport
from graphmind.errors import GraphmindError, InputError, RunError, ValidationError
from graphmind.embed import Embedder, HashingEmbedder, MiniLMEmbedder
from graphmind.io import ImportReport
from graphmind.llm import LLM, Prompt, Tool, ToolRun, Usage
from graphmind.mind import Mind, MindStats
from graphmind.recall import EmbedReport, RecallHit, RecallResult
from graphmind.samples import demo_file

__all__ = [
    "DreamParams",
    "DreamReport",
    "EmbedReport",
    "Embedder",
    "GraphmindError",
    "HashingEmbedder",
    "ImportReport",
    "InputError",
    "LLM",
    "Mind",
    "MindStats",
    "MiniLMEmbedder",
    "Prompt",
    "RecallHit",
    "RecallResult",
    "RunError",
    "Settings",
    "Tool",
    "ToolRun",
    "Usage",
    "ValidationError",
    "demo_file",
]
