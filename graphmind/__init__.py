"""graphmind: a Neo4j-backed knowledge-graph memory engine for LLM agents.

``Mind`` is the entry point; the other names are the types its methods take and return.
"""

from graphmind.app import MindEngines
from graphmind.config import Settings
from graphmind.digest import Digester, DigestParams, DigestReport
from graphmind.dream import Dreamer, DreamParams, DreamReport, KnowledgeMatch
from graphmind.dream.capture import Captured
from graphmind.dream.report import StoredLadder
from graphmind.dream.schedule import Schedule
from graphmind.dream.verify import Verification
from graphmind.dream.waiting import Waiting, WaitingExperience
from graphmind.embed import Embedder, HashingEmbedder, MiniLMEmbedder
from graphmind.errors import GraphmindError, InputError, RunError, ValidationError
from graphmind.forget import ForgetParams, ForgetReport
from graphmind.io import ImportReport
from graphmind.llm import LLM, Prompt, Tool, ToolRun, Usage
from graphmind.mind import Mind
from graphmind.models import Experience, GraphNode
from graphmind.prompts.recall import RecallAnswer
from graphmind.recall import EmbedReport, Recaller, RecallHit, RecallResult
from graphmind.ruminate import RuminationEngine, RuminationParams, RuminationResult
from graphmind.samples import demo_file
from graphmind.store import GraphStore, SchemaReport
from graphmind.store.minds import MindStats, MindSummary
from graphmind.wander.crystals import Crystals
from graphmind.wander.events import EventBus
from graphmind.wander.resonances import Resonances
from graphmind.wander.sessions import WanderSessions
from graphmind.wander.wanderer import Wander

__all__ = [
    "Captured",
    "Crystals",
    "DigestParams",
    "DigestReport",
    "Digester",
    "DreamParams",
    "DreamReport",
    "Dreamer",
    "EmbedReport",
    "Embedder",
    "EventBus",
    "Experience",
    "ForgetParams",
    "ForgetReport",
    "GraphNode",
    "GraphStore",
    "GraphmindError",
    "HashingEmbedder",
    "ImportReport",
    "InputError",
    "KnowledgeMatch",
    "LLM",
    "Mind",
    "MindEngines",
    "MindStats",
    "MindSummary",
    "MiniLMEmbedder",
    "Prompt",
    "RecallAnswer",
    "RecallHit",
    "RecallResult",
    "Recaller",
    "Resonances",
    "RuminationEngine",
    "RuminationParams",
    "RuminationResult",
    "RunError",
    "Schedule",
    "SchemaReport",
    "Settings",
    "StoredLadder",
    "Tool",
    "ToolRun",
    "Usage",
    "ValidationError",
    "Verification",
    "Waiting",
    "WaitingExperience",
    "Wander",
    "WanderSessions",
    "demo_file",
]
