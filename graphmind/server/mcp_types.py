"""Typed results of the MCP tools an agent calls most (recall, wander_step, dream, job_status).

The SDK turns these TypedDicts into each tool's ``outputSchema`` and validates every result
against it, dropping keys a TypedDict does not declare: each mirrors its ``as_dict`` in full.
(``typing_extensions.TypedDict``, which pydantic needs before Python 3.12.)
"""

from __future__ import annotations

from typing import Any, Literal

from typing_extensions import TypedDict


class RecallHitOut(TypedDict):
    id: str
    label: str
    score: float
    text: str | None
    why: dict[str, Any]
    properties: dict[str, Any]


class RecallOut(TypedDict):
    mind: str
    query: str
    unnamed_identifiers: list[str]
    model_id: str
    embedded: int
    reembedded: int
    stale: int
    vector_search: str
    timings_ms: dict[str, float]
    hits: list[RecallHitOut]


class StepOut(TypedDict):
    step_number: int
    from_locus: dict[str, Any]
    to_locus: dict[str, Any]
    strategy: str
    score: float
    adjacencies_considered: int
    in_scope: int
    residue_id: str
    themes: list[str]
    resonance: dict[str, Any]
    crystal: dict[str, Any] | None
    model_used: str
    cost_cents: float
    fence_hit: bool
    returned: bool


class WanderStepOut(TypedDict):
    step: StepOut | None


class JobStarted(TypedDict):
    job: str
    status: Literal["queued"]


class JobOut(TypedDict):
    id: str
    mind: str
    kind: str
    status: str
    progress: str | None
    result: Any
    error: str | None
    created_at: str | None
    updated_at: str | None
