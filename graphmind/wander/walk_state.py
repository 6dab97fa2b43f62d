"""A walk's state and what one step returns; the models a walk routes between."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from graphmind.llm import LLM
from graphmind.models import WanderSession
from graphmind.prompts.wander import DwellOutput
from graphmind.wander.crystals import CrystalResult
from graphmind.wander.space import Candidate, LocusView, concept_locus_id

NO_TENSION = "No tension found"
"""What a dwelling says when two loci share nothing (its tension is then not recorded)."""


@dataclass(frozen=True)
class StepResult:
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
    """Back to the seed because every adjacency found was out of scope."""
    returned: bool = False
    """Back to the seed, fenced or because nothing lay near (both count towards a stall)."""

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class WalkState:
    """What a walk keeps between steps of one run (reloaded from the graph at each run)."""

    session: WanderSession
    current: LocusView
    seed: LocusView
    anchors: np.ndarray
    excluded: np.ndarray
    attractor: np.ndarray | None
    visits: dict[str, int]
    crystallized: set[str]
    recent_themes: list[str] = field(default_factory=list)
    trace: list[dict[str, Any]] = field(default_factory=list)
    calls: dict[str, int] = field(default_factory=lambda: {"local_calls": 0, "cloud_calls": 0})


@dataclass(frozen=True)
class Models:
    cheap: LLM
    strong: LLM
    prices: dict[str, tuple[float, float]]


def _residue_fields(out: DwellOutput) -> dict[str, Any]:
    return {
        "connection": out.connection,
        "tension": out.tension,
        "bridge": out.bridge,
        "surprise": out.surprise,
        "possibility": out.possibility,
        "themes": list(out.themes),
        "interestingness": out.interestingness,
        "actionability": out.actionability,
    }


def _reason(chosen: Candidate | None) -> str:
    if chosen is None:
        return "every adjacency was out of scope: back to the seed"
    via = f" via {chosen.via}" if chosen.via else ""
    return f"{chosen.strategy.replace('_', ' ')}{via} (cosine {chosen.cosine:.2f})"


def _active(crystal_write: dict | None) -> bool:
    return crystal_write is not None and crystal_write["props"].get("status") == "active"


def _crystal_dict(result: CrystalResult | None) -> dict[str, Any] | None:
    if result is None or not result.formed:
        return None
    return {
        "id": result.crystal_id,
        "status": result.status,
        "insight": result.insight,
        "evidence": list(result.evidence),
    }


def step_params(
    mind: str,
    state: WalkState,
    n: int,
    target: LocusView,
    chosen: Candidate | None,
    out: DwellOutput,
    residue_id: str,
    memories: list[dict[str, Any]],
    model_used: str,
    cost: float,
    score: float,
    considered: int,
) -> dict[str, Any]:
    current, strategy = state.current, chosen.strategy if chosen else "return_to_seed"
    cosine = float(current.vector @ target.vector) if len(current.vector) and len(target.vector) else 0.0
    crosses = bool(set(current.domains) ^ set(target.domains))
    return {
        "from": current.id,
        "to": target.id,
        "from_item": current.item(),
        "trace": {
            "step_number": n,
            "strategy": strategy,
            "via": chosen.via if chosen else None,
            "score": score,
            "adjacencies_considered": considered,
            "model_used": model_used,
            "cost_cents": cost,
            "selection_reason": _reason(chosen),
        },
        "residue": {
            "uid": f"{mind}:{residue_id}",
            "id": residue_id,
            "props": {
                "session_id": state.session.id,
                "step_number": n,
                "from_locus_id": current.id,
                "to_locus_id": target.id,
                "model_used": model_used,
                "cost_cents": cost,
                **_residue_fields(out),
            },
        },
        "memories": [f"{mind}:{i}" for i in out.memory_ids if i in {m["id"] for m in memories}],
        "loaded": [f"{mind}:{m['id']}" for m in memories],  # in the dwelling's context: a hit each
        "adjacent": {"distance": round(1 - cosine, 6), "strength": round(max(0.0, cosine), 6)}
        if strategy == "distance_band"
        else None,
        "bridge": {"bridge_type": (chosen.via if chosen and chosen.via else "domains"), "strength": score}
        if crosses and chosen
        else None,
        "tension": None if out.tension.startswith(NO_TENSION) else out.tension,
        "interestingness": out.interestingness,
        "actionability": out.actionability,
    }


def possibility_locus(
    mind: str,
    session: WanderSession,
    current: LocusView,
    target: LocusView,
    out: DwellOutput,
    memories: list[dict[str, Any]],
) -> dict[str, Any] | None:
    concept = out.possibility.strip()
    if not concept or not out.memory_ids:  # a new concept must rest on the memories it came from
        return None
    locus_id = concept_locus_id(session.id, concept)
    levels = [x for x in (current.abstraction_level, target.abstraction_level) if x is not None]
    labels = {m["id"]: m["label"] for m in memories}
    role = next((labels[i] for i in out.memory_ids if i in labels), target.role)
    return {
        "uid": f"{mind}:{locus_id}",
        "id": locus_id,
        "refers_to": [f"{mind}:{i}" for i in out.memory_ids],
        "props": {
            "concept": concept[:400],
            "session_id": session.id,
            "source_type": "SERENDIPITOUS",
            "role": role,
            "tier": "hot",
            "domains": sorted(set(current.domains) | set(target.domains)),
            "abstraction_level": round(sum(levels) / len(levels), 6) if levels else None,
        },
    }
