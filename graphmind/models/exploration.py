"""Types of Wander sessions, digests and rumination runs."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from graphmind.models.base import Count, GraphNode, Kind, Timestamp, Unit


class WanderSession(GraphNode):
    LABEL: ClassVar[str] = "WanderSession"
    KIND: ClassVar[Kind] = "run"
    seed_concept: str
    name: str | None = None
    status: Literal["active", "paused", "completed", "abandoned"] = "active"
    attractor: str | None = None
    allowed_domains: list[str] = []
    forbidden_domains: list[str] = []
    fence_concepts: list[str] = []
    max_drift_distance: Unit = 0.8
    max_steps: Count = 1000
    temperature: float = Field(0.7, ge=0, le=5)
    cloud_budget_cents: Count = 500
    human_checkpoint_frequency: Count = 50
    dweller: Literal["simple", "rlm"] = "simple"
    """simple: the seed's dwelling prompt; rlm: the dweller queries memory through the REPL."""
    hot_memory_limit: Count = 100
    """Hot loci a session keeps before the oldest are compressed into warm memory."""
    fence_excluded: list[str] = []
    """Concepts fenced out: a locus this close to one is out of scope (``wander fence --exclude``)."""
    rng_seed: int | None = None
    """Step n draws from ``random.Random(f"{rng_seed}:{n}")``: a session's walk is replayable."""
    current_locus_id: str | None = None
    seed_locus_id: str | None = None
    forced_locus_id: str | None = None
    """An injected concept the next step must visit (``wander inject``), then cleared."""
    paused_reason: str | None = None
    cloud_spent_cents: float | None = None
    local_calls: Count | None = None
    cloud_calls: Count | None = None
    crystals_formed: Count | None = None
    steps_completed: Count | None = None
    stopped_reason: str | None = None
    last_step_at: Timestamp | None = None
    completed_at: Timestamp | None = None
    updated_at: Timestamp | None = None


class Locus(GraphNode):
    """A point in idea space."""

    LABEL: ClassVar[str] = "Locus"
    WORKING: ClassVar[bool] = True
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("concept",)
    concept: str
    session_id: str | None = None
    """The session whose walk generated it (deleted with the session); None for a locus that
    stands for the mind's own memory."""
    tier: Literal["hot", "warm"] = "hot"
    source_type: Literal["SEED", "ADJACENT", "BRIDGED", "SERENDIPITOUS", "MEMORY", "INJECTED"] | None = None
    """The spec's four, plus MEMORY (stands for one of the mind's memories, ``REFERS_TO`` it)
    and INJECTED (a concept a human forced into the walk)."""
    role: str | None = None
    """The type (label) of the memory it stands for or first drew on: analogies share a role."""
    domains: list[str] = []
    abstraction_level: Unit | None = None
    novelty_score: Unit | None = None
    interestingness: Unit | None = None
    actionability: Unit | None = None
    uncertainty: Unit | None = None
    visit_count: Count | None = None
    last_visited: Timestamp | None = None


class Residue(GraphNode):
    """What one wander step left behind."""

    LABEL: ClassVar[str] = "Residue"
    WORKING: ClassVar[bool] = True
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("connection", "tension", "bridge", "surprise", "possibility")
    session_id: str | None = None
    step_number: Count | None = None
    from_locus_id: str | None = None
    to_locus_id: str | None = None
    model_used: str | None = None
    cost_cents: float | None = None
    connection: str | None = None
    tension: str | None = None
    bridge: str | None = None
    surprise: str | None = None
    possibility: str | None = None
    themes: list[str] = []
    interestingness: Unit | None = None
    actionability: Unit | None = None


class Resonance(GraphNode):
    """A theme that recurs across residues and decays when not reinforced."""

    LABEL: ClassVar[str] = "Resonance"
    WORKING: ClassVar[bool] = True
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("themes",)
    themes: list[str]
    occurrences: Count = 1
    strength: float = 1.0
    decay_rate: Unit = 0.1
    last_reinforced_at: Timestamp | None = None
    status: Literal["candidate", "confirmed", "invalidated"] = "candidate"
    session_id: str | None = None
    """The session that first saw it; resonances are matched across all sessions of a mind."""
    theme_vector: list[float] | None = None
    """The embedding of its themes when first seen: what new themes are matched against."""


class Crystal(GraphNode):
    LABEL: ClassVar[str] = "Crystal"
    WORKING: ClassVar[bool] = True
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("insight",)
    insight: str
    confidence: Unit | None = None
    actionability: Unit | None = None
    domains: list[str] = []
    status: Literal["active", "acted_upon", "invalidated", "archived"] = "active"
    validated_by: str | None = None
    validation_notes: str | None = None
    human_approved: bool = False
    human_approved_at: Timestamp | None = None
    human_approved_by: str | None = None
    session_id: str | None = None
    source_locus_id: str | None = None


class WarmMemory(GraphNode):
    LABEL: ClassVar[str] = "WarmMemory"
    WORKING: ClassVar[bool] = True
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("content",)
    cluster_type: Literal["theme_cluster", "failed_path", "summary"]
    content: str
    session_id: str | None = None
    strength: float = 1.0
    last_accessed_at: Timestamp | None = None
    expires_at: Timestamp | None = None


class TopicEntry(GraphNode):
    LABEL: ClassVar[str] = "TopicEntry"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("topic", "text")
    topic: str
    text: str
    date: Timestamp | None = None
    """A plain date (taken as midnight UTC) or a date-time."""
    hits: Count = 0
    status: Literal["active", "absorbed", "faded"] = "active"
    absorbed_at: Timestamp | None = None


class Thread(GraphNode):
    LABEL: ClassVar[str] = "Thread"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("title", "progress_notes")
    title: str
    status: Literal["active", "archived", "merged", "closed"] = "active"
    progress_notes: list[str] = []
    touches: Count = 0
    """How often the thread was worked on; a merged thread's touches are the sum of both."""


class RuminationRun(GraphNode):
    LABEL: ClassVar[str] = "RuminationRun"
    KIND: ClassVar[Kind] = "run"
    message: str | None = None
    sender: str | None = None
    steps: Count | None = None
    final_gap_score: Unit | None = None
    stopped_reason: str | None = None


class Finding(GraphNode):
    LABEL: ClassVar[str] = "Finding"
    WORKING: ClassVar[bool] = True
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("summary",)
    summary: str
    section: str | None = None
    step_number: Count | None = None


EXPLORATION_TYPES: tuple[type[GraphNode], ...] = (
    WanderSession,
    Locus,
    Residue,
    Resonance,
    Crystal,
    WarmMemory,
    TopicEntry,
    Thread,
    RuminationRun,
    Finding,
)
