"""The mind-protocol memory types that rumination and the Context Object read."""

from __future__ import annotations

from typing import ClassVar

from graphmind.models.base import Count, GraphNode, Timestamp, Unit


class Identity(GraphNode):
    """The mind itself; one per mind."""

    LABEL: ClassVar[str] = "Identity"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("name", "role", "focus_area")
    name: str
    role: str | None = None
    focus_area: str | None = None


class Partnership(GraphNode):
    LABEL: ClassVar[str] = "Partnership"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("partner_name", "communication_style", "shared_history")
    partner_name: str
    duration: str | None = None
    shared_history: list[str] = []
    communication_style: str | None = None
    trust_level: Unit | None = None


class Conversation_Memory(GraphNode):
    LABEL: ClassVar[str] = "Conversation_Memory"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("topic", "key_points", "outcome")
    topic: str
    timestamp: Timestamp | None = None
    message_count: Count | None = None
    emotional_tone: str | None = None
    key_points: list[str] = []
    outcome: str | None = None


class Technical_Context(GraphNode):
    LABEL: ClassVar[str] = "Technical_Context"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("component", "issue_type", "description")
    component: str
    issue_type: str | None = None
    description: str | None = None
    status: str | None = None
    recurrence_count: Count | None = None


class Emotional_State(GraphNode):
    LABEL: ClassVar[str] = "Emotional_State"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("emotion", "context", "trigger", "counterbalance")
    emotion: str
    intensity: Unit | None = None
    context: str | None = None
    counterbalance: str | None = None
    trigger: str | None = None


class Strategy_Pattern(GraphNode):
    LABEL: ClassVar[str] = "Strategy_Pattern"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("approach", "applicability", "steps")
    approach: str
    success_rate: Unit | None = None
    applicability: str | None = None
    steps: list[str] = []


class Code_Reference(GraphNode):
    LABEL: ClassVar[str] = "Code_Reference"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("file_path", "description")
    file_path: str
    complexity: str | None = None
    description: str | None = None


class Failed_Attempt(GraphNode):
    LABEL: ClassVar[str] = "Failed_Attempt"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("approach", "why_failed")
    approach: str
    why_failed: str | None = None
    timestamp: Timestamp | None = None


class Constraint(GraphNode):
    LABEL: ClassVar[str] = "Constraint"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("constraint_type", "description", "impact")
    constraint_type: str | None = None
    severity: str | None = None
    description: str
    deadline: Timestamp | None = None
    impact: str | None = None


MIND_PROTOCOL_TYPES: tuple[type[GraphNode], ...] = (
    Identity,
    Partnership,
    Conversation_Memory,
    Technical_Context,
    Emotional_State,
    Strategy_Pattern,
    Code_Reference,
    Failed_Attempt,
    Constraint,
)
