"""DreamParams: the dreaming pipeline's settings, with the seed's numbers as defaults."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Trigger = Literal["manual", "session-complete", "threshold", "periodic"]


class DreamParams(BaseModel):
    """Everything one dream run may be tuned with (dreaming-pipeline-spec §4.2 defaults)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # Triage (FR-2.1.2)
    min_importance: float = Field(0.3, ge=0, le=1)
    duplicate_similarity: float = Field(0.8, ge=0, le=1)
    """Near-duplicates among experiences with no strategy name (the spec's 0.8). At 0.7, CLINC150's
    requests of different intents collapse: pattern ARI 0.752 -> 0.716 (bench/dream_quality.py)."""
    named_duplicate_similarity: float = Field(0.7, ge=0, le=1)
    """Near-duplicates among experiences of one strategy name and outcome. Calibrated with
    MiniLM, one domain of tests/data/triage at a time (bench/triage_quality.py): the lowest
    cosine (steps of 0.05) above the highest one between different techniques filed under one
    name (tests/data/dream_crossed, "on-call runbook": 0.57) that keeps every "keep" capture:
    bakery 0.6 (on operations it then folds a first account into an insight of the same name,
    cosine 0.69: keep recall 0.92), operations 0.7 (on bakery: drop 0.50, keep recall 1.00);
    the larger is kept."""
    max_per_session: int = Field(100, ge=1)
    # Compression (FR-2.1.3)
    target_ratio: float = Field(10.0, gt=1)
    ratio_tolerance: float = Field(0.3, ge=0, lt=1)
    ratio_min_experiences: int = Field(50, ge=1)
    """The ratio is warned about only when at least this many experiences went into the run's
    new patterns: a small batch of a few topics rightly reads 3-6:1 (the spec states its
    figures for a ladder over 50 experiences or more). The report gives the ratio either way."""
    clustering: Literal["semantic", "structural", "hybrid"] = "hybrid"
    extraction: Literal["centroid", "exemplar", "composite"] = "centroid"
    min_cluster_size: int = Field(3, ge=1)
    max_examples: int = Field(5, ge=3)
    strategy_min_cohesion: float = Field(0.6, ge=0, le=1)
    """A group of experiences that share a strategy name is split into the clusters its
    meaning falls into when its cohesion (mean cosine of its action embeddings to their
    centroid) is below this. Calibrated on tests/data/dream_crossed with MiniLM: one
    "on-call runbook" name over three techniques 0.575; each technique's own experiences
    0.62-0.80 (all kept whole)."""
    small_batch_separation: float = Field(0.1, ge=-1, le=1)
    """Under ``ratio_min_experiences`` experiences clustered by meaning, a cluster makes a
    pattern only when its members stand apart from the rest of the batch (mean silhouette
    above this; graphmind/dream/small_batch.py); the others wait for company."""
    join_similarity: float = Field(0.7, ge=0, le=1)
    """A new experience joins an existing pattern when its cosine to the pattern's centroid
    reaches this (and no other pattern is closer)."""
    anchors_per_pattern: int = Field(10, ge=0)
    """The rest are clustered with up to this many experiences of each active pattern, which
    a community holding them grows (``graphmind.dream.anchors``; 0: without, clustered alone)."""
    # Abstraction (FR-2.1.4): level 4 only from this many patterns on
    meta_min_patterns: int = Field(10, ge=2)
    max_level: int = Field(4, ge=1, le=4)
    """The highest ladder level built: 4 (meta-principles, the spec's 5 levels counting the
    experiences), 3 (principles), 2 (categories) or 1 (patterns only, no abstractions)."""
    # Integration (FR-2.1.5)
    cross_connect_similarity: float = Field(0.6, ge=0, le=1)
    redundancy_similarity: float = Field(0.8, ge=0, le=1)
    min_utility: float = Field(0.2, ge=0, le=1)
    failure_share: float = Field(0.5, gt=0, le=1)
    """A pattern records a failure (a negative result: "X did not work") when at least this
    share of its experiences failed, i.e. its approach failed at least as often as not. Such a
    pattern is never pruned for low utility (the seed's utility is low by construction for
    it) and is pruned as redundant only to a pattern that records the failure too."""
    # Knowledge (Mind.query_knowledge)
    subject_share: float = Field(0.5, gt=0, le=1)
    """A failure answers "does X help?" when its pattern shares at least this share of X's
    content terms (stemmed; at least one): "does lowering the hold timer help" is answered by
    "a lower hold timer did not stop the flaps", not by another failure that merely "did not help"."""
    relevance_quantile: float | None = Field(97.5, ge=50, lt=100)
    """A pattern answers a query only when its cosine to the query is above this percentile of
    the query's cosines to texts about unrelated matters (``coherence.relevance_floor``), so an
    off-topic question gets no answer rather than the nearest patterns; None keeps them all.
    Chosen by leaving one of six labelled sets out (``bench/knowledge_quality.py --calibrate``:
    97.5 in five folds, 95 in one); off-topic questions then get nothing in 0.60-1.00 of the
    cases, and 0.77-1.00 of the relevant answers are kept."""
    # Verification (FR-2.1.6)
    min_verification_score: float = Field(0.8, ge=0, le=1)
    supersede_gap_hours: float = Field(1.0, ge=0)
    """Of two contradicting patterns, the one whose evidence all precedes the other's by at
    least this many hours is superseded (graphmind.dream.supersede); closer or overlapping
    evidence (one sitting, one batch of captures) leaves the pair flagged. A judgement, not
    calibrated on data: one hour separates a change of practice from the order of one session."""
    strict_mode: bool = False
    """A failed verification aborts the run before anything is published (the spec's
    strictMode / onVerificationFail 'abort'): the stored ladder stays as it was. Off: the
    run is stored with its patterns and ladder unverified (warn-and-store)."""
    # Runs
    domain: str = ""
    """What the experiences are about, shown to the LLM; empty: the mind's Identity says
    (its focus area, else its role), else none is named."""
    session: str | None = None
    """Consolidate this session's experiences (``Mind.end_session``), with those an earlier run
    deferred from any session (they wait for more like them); None: every unconsumed experience
    of the mind."""
    max_experiences: int = Field(100_000, ge=1)
    """The most unconsumed experiences one run reads: the oldest that no run has seen, then
    deferred ones, those seen by the fewest runs first (so past the cap they take turns); the
    rest stay queued for the next run (the report's ``remaining``). A run holds every
    experience it reads, their vectors and their neighbour graph in memory: 100,000 took 116 s
    and 1.4 GiB (``graphmind dream``, hashing embedder, the 2-core VM), so a backlog of a
    million is consumed over ten runs instead of needing ~14 GiB at once."""
    dry_run: bool = False
    seed: int = 0
    lease_seconds: float = Field(120.0, gt=0)
    """The lease a run holds on its mind, renewed after every phase: a run that dies lets it
    lapse within this time, and the next run takes over."""
    wait_seconds: float = Field(0.0, ge=0)
    """How long a run waits for another run on the same mind to finish before refusing."""
    llm_batch: bool = False
    """Send the compression's extraction calls as one Message Batch (Anthropic): half the
    price, results in minutes to hours; for night cycles. Other providers ignore it."""
    batch_poll_seconds: float = Field(30.0, gt=0)
    batch_timeout_seconds: float = Field(86_400.0, gt=0)
