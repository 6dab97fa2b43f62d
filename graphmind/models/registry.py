"""The whitelist: which labels and relationship types graphmind writes, and their models.

Labels and relationship types never come from user text into Cypher unless they are
checked here first; queries receive them as parameters (dynamic labels), never spliced.
"""

from __future__ import annotations

import re
from typing import ClassVar, Literal

from graphmind.errors import UnknownLabelError
from graphmind.models.base import EdgeProperties, GraphNode, Unit
from graphmind.models.consolidation import CONSOLIDATION_TYPES
from graphmind.models.conversation import CONVERSATION_TYPES
from graphmind.models.exploration import EXPLORATION_TYPES
from graphmind.models.forgetting import FORGETTING_TYPES
from graphmind.models.mind_protocol import MIND_PROTOCOL_TYPES

MEMORY_LABEL = "Memory"
RUN_LABEL = "Run"
REL_TYPE_PATTERN = re.compile(r"[A-Z][A-Z0-9_]{0,99}")

NODE_TYPES: dict[str, type[GraphNode]] = {
    model.LABEL: model
    for model in (
        *MIND_PROTOCOL_TYPES,
        *CONSOLIDATION_TYPES,
        *EXPLORATION_TYPES,
        *CONVERSATION_TYPES,
        *FORGETTING_TYPES,
    )
}

RECALLED_LABELS: tuple[str, ...] = tuple(
    sorted(label for label, model in NODE_TYPES.items() if model.KIND == "memory" and not model.WORKING)
)
"""The labels recall and ask search when no label is asked for: memories, not the working
nodes of the engines (loci, residues, resonances, crystals, warm memories, findings)."""


class ConnectsProperties(EdgeProperties):
    """``(:Pattern)-[:CONNECTS]->(:Pattern)``."""

    REL: ClassVar[str] = "CONNECTS"
    kind: Literal["prerequisite", "alternative", "refinement", "complement"]
    strength: Unit


class StepProperties(EdgeProperties):
    """``(:Locus)-[:STEP]->(:Locus)``."""

    REL: ClassVar[str] = "STEP"
    KEY: ClassVar[tuple[str, ...]] = ("session", "step_number")
    session: str
    step_number: int


class OfStepProperties(EdgeProperties):
    """``(:Residue)-[:OF_STEP]->(:Locus)``: a step from a locus to itself gives two."""

    REL: ClassVar[str] = "OF_STEP"
    KEY: ClassVar[tuple[str, ...]] = ("role",)
    role: Literal["from", "to"]


EDGE_PROPERTY_TYPES: dict[str, type[EdgeProperties]] = {
    model.REL: model for model in (ConnectsProperties, StepProperties, OfStepProperties)
}


def node_model(label: object) -> type[GraphNode]:
    """The model for ``label``, or UnknownLabelError."""
    model = NODE_TYPES.get(label) if isinstance(label, str) else None
    if model is None:
        raise UnknownLabelError(f"unknown label {label!r}; known labels: {', '.join(sorted(NODE_TYPES))}")
    return model


def base_label(label: str) -> str:
    """``Memory`` or ``Run``: the shared label (with the uid constraint) of ``label``."""
    return RUN_LABEL if node_model(label).KIND == "run" else MEMORY_LABEL


def check_rel_type(rel: object) -> str:
    """``rel`` if it is a usable relationship type, else UnknownLabelError."""
    if not isinstance(rel, str) or not REL_TYPE_PATTERN.fullmatch(rel):
        raise UnknownLabelError(f"relationship type {rel!r} is not allowed; it must match {REL_TYPE_PATTERN.pattern}")
    return rel


def edge_properties_model(rel: str) -> type[EdgeProperties]:
    """The typed properties model for ``rel`` (a permissive one for non-contract types)."""
    return EDGE_PROPERTY_TYPES.get(rel, EdgeProperties)
