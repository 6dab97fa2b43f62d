"""Types of the dreaming pipeline: experiences in, patterns and the abstraction ladder out."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from graphmind.models.base import Count, GraphNode, Kind, Timestamp, Unit


class Experience(GraphNode):
    LABEL: ClassVar[str] = "Experience"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("description",)
    description: str
    outcome: Literal["success", "failure", "progress"]
    kind: Literal["move", "strategy", "insight", "error"] = "move"
    strategy_used: str | None = None
    session_id: str | None = None
    timestamp: Timestamp | None = None
    importance: Unit | None = None
    confidence: Unit | None = None
    impact: Literal["high", "medium", "low"] | None = None


class Pattern(GraphNode):
    LABEL: ClassVar[str] = "Pattern"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("description", "conditions", "actions")
    description: str
    pattern_type: Literal["strategy", "technique", "heuristic"] | None = None
    conditions: list[str] = []
    actions: list[str] = []
    success_rate: Unit | None = None
    usage_count: Count | None = None
    confidence: Unit | None = None
    verification_status: Literal["unverified", "verified", "invalidated"] = "unverified"


class Abstraction(GraphNode):
    LABEL: ClassVar[str] = "Abstraction"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("name", "generalization")
    level: int = Field(ge=2, le=4)
    name: str
    generalization: str | None = None


class DreamRun(GraphNode):
    LABEL: ClassVar[str] = "DreamRun"
    KIND: ClassVar[Kind] = "run"
    started_at: Timestamp | None = None
    finished_at: Timestamp | None = None
    status: Literal["running", "completed", "failed"] | None = None
    experiences: Count | None = None
    patterns: Count | None = None
    compression_ratio: float | None = None
    rng_seed: int | None = None


CONSOLIDATION_TYPES: tuple[type[GraphNode], ...] = (Experience, Pattern, Abstraction, DreamRun)
