"""Types of the dreaming pipeline: experiences in, patterns and the abstraction ladder out."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from graphmind.models.base import Count, GraphNode, Kind, SomeText, Timestamp, Unit


class Experience(GraphNode):
    """One thing that happened, captured as it happened: what the dream consolidates."""

    LABEL: ClassVar[str] = "Experience"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("description",)
    description: SomeText
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
    name: str | None = None
    pattern_type: Literal["strategy", "technique", "heuristic"] | None = None
    conditions: list[str] = []
    actions: list[str] = []
    success_rate: Unit | None = None
    usage_count: Count | None = None
    confidence: Unit | None = None
    verification_status: Literal["unverified", "verified", "invalidated"] = "unverified"
    status: Literal["active", "pruned"] = "active"
    """``pruned`` patterns stay in the graph (redundant ones with SUPERSEDED_BY)."""
    pruned_reason: str | None = None
    utility: Unit | None = None
    centroid: list[float] | None = None
    """Mean embedding of the experiences it consolidates (normalised): how new ones join."""
    stale_since: Timestamp | None = None
    """From when experiences of it stopped holding (superseded, or valid again after a forget):
    the first dream after that extracts it again (graphmind.dream.refresh)."""


class Abstraction(GraphNode):
    LABEL: ClassVar[str] = "Abstraction"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("name", "generalization")
    level: int = Field(ge=2, le=4)
    name: str
    generalization: str | None = None
    status: Literal["active", "retired"] = "active"
    """``retired`` when a later dream rebuilt the ladder without it (kept, never deleted)."""
    verification_status: Literal["unverified", "verified"] | None = None
    """What the dream that built it found (``graphmind verify`` checks the ladder as it is now)."""
    centroid: list[float] | None = None


class DreamRun(GraphNode):
    LABEL: ClassVar[str] = "DreamRun"
    KIND: ClassVar[Kind] = "run"
    started_at: Timestamp | None = None
    finished_at: Timestamp | None = None
    status: Literal["running", "completed", "failed", "interrupted"] | None = None
    experiences: Count | None = None
    patterns: Count | None = None
    compression_ratio: float | None = None
    rng_seed: int | None = None
    trigger: Literal["manual", "session-complete", "threshold", "periodic"] | None = None
    dry_run: bool | None = None
    triaged: Count | None = None
    ladder_levels: Count | None = None
    cross_connections: Count | None = None
    pruned: Count | None = None
    verification_status: Literal["verified", "flagged", "warnings", "failed", "empty", "unverified"] | None = None
    """``warnings`` is what runs before ``flagged`` recorded."""
    verification_score: Unit | None = None
    llm_calls: Count | None = None
    transfer_improvement: float | None = None
    """DreamReport.transfer_improvement: the spec's transfer test for this run."""
    transfer_applied: Count | None = None
    """What that figure compares (DreamReport.transfer_basis): experiences that applied earlier
    patterns, how many patterns, and the new ones."""
    transfer_patterns: Count | None = None
    transfer_new: Count | None = None
    degraded: list[str] = []


CONSOLIDATION_TYPES: tuple[type[GraphNode], ...] = (Experience, Pattern, Abstraction, DreamRun)
