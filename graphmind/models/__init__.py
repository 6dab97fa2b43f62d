"""Pydantic models for every label graphmind keeps, and the label whitelist."""

from graphmind.models.base import EdgeProperties, GraphNode, Timestamp, Unit
from graphmind.models.consolidation import Abstraction, DreamRun, Experience, Pattern
from graphmind.models.exploration import (
    Crystal, Finding, Locus, Residue, Resonance, RuminationRun, Thread, TopicEntry,
    WanderSession, WarmMemory,
)
from graphmind.models.mind_protocol import (
    Code_Reference, Constraint, Conversation_Memory, Emotional_State, Failed_Attempt, Identity,
    Partnership, Strategy_Pattern, Technical_Context,
)
from graphmind.models.registry import (
    MEMORY_LABEL, NODE_TYPES, RECALLED_LABELS, RUN_LABEL, base_label, check_rel_type,
    edge_properties_model, node_model,
)

__all__ = [
    "MEMORY_LABEL", "NODE_TYPES", "RECALLED_LABELS", "RUN_LABEL", "Abstraction",
    "Code_Reference", "Constraint", "Conversation_Memory", "Crystal", "DreamRun", "EdgeProperties",
    "Emotional_State", "Experience", "Failed_Attempt", "Finding", "GraphNode", "Identity", "Locus",
    "Partnership", "Pattern", "Residue", "Resonance", "RuminationRun", "Strategy_Pattern",
    "Technical_Context", "Thread", "Timestamp", "TopicEntry", "Unit", "WanderSession", "WarmMemory",
    "base_label", "check_rel_type", "edge_properties_model", "node_model",
]
