"""graphmind: a Neo4j-backed knowledge-graph memory engine for LLM agents."""

from graphmind.config import Settings
from graphmind.errors import GraphmindError, InputError, RunError, ValidationError
from graphmind.io import ImportReport
from graphmind.mind import Mind, MindStats

__all__ = [
    "GraphmindError",
    "ImportReport",
    "InputError",
    "Mind",
    "MindStats",
    "RunError",
    "Settings",
    "ValidationError",
]
