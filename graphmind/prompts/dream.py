"""Dreaming prompts (dreaming-pipeline-spec): pattern extraction, the abstraction ladder (its
grouping, with an online LLM, and its names), cross-connections and verification.

``dream.extract_pattern`` keeps the seed's extraction prompt (§5.1.2) verbatim; its
``puzzle-solving`` is the ``domain`` input's default. The other prompts turn the seed's
rules (FR-2.1.4 to FR-2.1.6) into questions; their verdict sentences are the seed's own.
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import Field

from graphmind.llm.base import Prompt
from graphmind.prompts._models import PromptModel, Unit, bullet_list

ConnectionKind = Literal["prerequisite", "alternative", "refinement", "complement"]
PatternType = Literal["strategy", "technique", "heuristic"]

LEVEL_NAMES: dict[int, str] = {
    0: "Concrete Instances",
    1: "Named Techniques",
    2: "Strategy Categories",
    3: "General Principles",
    4: "Meta-Cognitive Principles",
}
"""The seed's names of the ladder's levels (graphmind: patterns are level 1)."""

SYSTEM = (
    "You consolidate an agent's experiences into patterns during its night cycle.\n"
    "Use only the experiences and patterns you are given: every name, condition and action "
    "must be traceable to them. Pattern descriptions are human-readable."
)


class ExperienceItem(PromptModel):
    """One experience of a cluster, as the extraction prompt shows it."""

    id: str = Field(min_length=1)
    description: str = Field(min_length=1)
    outcome: Literal["success", "failure", "progress"]
    kind: Literal["move", "strategy", "insight", "error"] = "move"
    strategy_used: str | None = None
    importance: Unit | None = None
    confidence: Unit | None = None
    action: str | None = Field(default=None, exclude=True)
    """The description without the particular names the dream found across its batch (services,
    people, places: ``entities.action_texts``): what the offline rules generalise from. Never
    dumped, so never shown to an LLM (which reads the description as captured) nor part of a
    replay cassette's inputs hash."""


class PatternExtractionInput(PromptModel):
    experiences: list[ExperienceItem] = Field(min_length=1)
    domain: str = "puzzle-solving"


class ExtractedPattern(PromptModel):
    """The seed's four answers (name, conditions, actions, success rate) plus type and examples."""

    name: str = Field(min_length=1)
    pattern_type: PatternType
    conditions: list[str] = []
    actions: list[str] = []
    success_rate: Unit | None = None
    example_ids: list[str] = []


def render_extract(inputs: PatternExtractionInput) -> str:
    """The seed's prompt, indentation included; each experience as JSON (its "trajectory")."""
    lines = "\n".join(
        "      " + json.dumps(e.model_dump(exclude_none=True, exclude={"action"}), ensure_ascii=False)
        for e in inputs.experiences
    )
    return f"""Analyze these {len(inputs.experiences)} {inputs.domain} experiences and extract a common pattern.

      Experiences:
{lines}

      Extract:
      1. Pattern name (short, descriptive)
      2. Conditions (when to apply)
      3. Actions (what to do)
      4. Success rate (calculate from examples)"""


class PatternItem(PromptModel):
    """A pattern (or an abstraction) as the later phases see it."""

    id: str = Field(min_length=1)
    description: str = Field(min_length=1)
    conditions: list[str] = []
    actions: list[str] = []
    success_rate: Unit | None = None
    example_ids: list[str] = []
    name: str = ""
    """Its name alone, when known (the description starts with it)."""


def _pattern(p: PatternItem) -> str:
    rate = "" if p.success_rate is None else f"; success rate {p.success_rate:.0%}"
    return (
        f"[{p.id}] {p.description}{rate}\n  IF: {'; '.join(p.conditions) or '-'}\n"
        f"  THEN: {'; '.join(p.actions) or '-'}\n  examples: {', '.join(p.example_ids) or '-'}"
    )


class AbstractionInput(PromptModel):
    level: int = Field(ge=2, le=4)
    members: list[PatternItem] = Field(min_length=1)
    domain: str = ""
    key_phrases: list[str] = []
    """Phrases frequent in these members and rare in their siblings (c-TF-IDF), none of them
    the name of a particular service, customer or person."""


class AbstractionOutput(PromptModel):
    name: str = Field(min_length=1)
    generalization: str = Field(min_length=1)
    member_ids: list[str] = []


def render_abstraction(inputs: AbstractionInput) -> str:
    below = LEVEL_NAMES[inputs.level - 1]
    domain = f" ({inputs.domain})" if inputs.domain else ""
    return (
        f"These {len(inputs.members)} items are {below}{domain}. Name the one item of level "
        f"{inputs.level}, {LEVEL_NAMES[inputs.level]}, that subsumes them, and state its "
        "generalization in one sentence.\n"
        "- Each level has meaningful abstractions (not just rewording)\n"
        "- Higher levels subsume lower levels (vertical consistency)\n"
        "- Ladder is grounded (can trace L3 → L2 → L1 → L0)\n\n"
        + "\n".join(_pattern(m) for m in inputs.members)
        + (f"\n\nKey phrases of these items: {'; '.join(inputs.key_phrases)}." if inputs.key_phrases else "")
        + "\n\nName what they have in common in general words: no service, customer or person "
        "name. List the ids of the items it subsumes."
    )


class GroupingInput(PromptModel):
    level: int = Field(ge=2, le=4)
    items: list[PatternItem] = Field(min_length=2)
    proposal: list[list[str]] = Field(min_length=1)
    """The grouping by embeddings: the ids of each proposed group."""
    domain: str = ""
    problem: str = ""
    """Why an earlier answer to this prompt could not be used (the one re-ask)."""


class ItemGroup(PromptModel):
    member_ids: list[str] = Field(min_length=1)


class GroupingOutput(PromptModel):
    groups: list[ItemGroup] = Field(min_length=1)


def render_group(inputs: GroupingInput) -> str:
    below = LEVEL_NAMES[inputs.level - 1]
    domain = f" ({inputs.domain})" if inputs.domain else ""
    proposal = "\n".join(f"{k}. {', '.join(ids)}" for k, ids in enumerate(inputs.proposal, 1))
    return (
        f"These {len(inputs.items)} items are {below}{domain}. Group them into level "
        f"{inputs.level}, {LEVEL_NAMES[inputs.level]}: put together the items that serve one "
        "purpose or belong to one field, as someone who knows the field would file them.\n"
        f"- Use as many groups as the items call for, fewer than {len(inputs.items)}\n"
        "- Every id in exactly one group\n\n"
        + "\n".join(_pattern(m) for m in inputs.items)
        + f"\n\nA grouping by the similarity of their wording proposes:\n{proposal}\n\n"
        "Keep what it gets right, move the items it files wrongly, and list the groups' ids."
        + (
            f"\n\nYour earlier answer could not be used: {inputs.problem}. Answer again, with every id exactly once."
            if inputs.problem
            else ""
        )
    )


class ConnectionInput(PromptModel):
    a: PatternItem
    b: PatternItem
    similarity: Unit | None = None


class ConnectionOutput(PromptModel):
    """``(:Pattern {id: from_id})-[:CONNECTS {kind, strength}]->(:Pattern {id: to_id})``."""

    from_id: str
    to_id: str
    kind: ConnectionKind
    strength: Unit
    evidence: list[str] = []
    rationale: str


def render_connect(inputs: ConnectionInput) -> str:
    similarity = "" if inputs.similarity is None else f" (semantic similarity {inputs.similarity:.2f})"
    return (
        f"Two related patterns{similarity}:\n{_pattern(inputs.a)}\n{_pattern(inputs.b)}\n\n"
        "Classify their relationship as one of: prerequisite | alternative | refinement | "
        "complement. Give its direction (from_id -> to_id), its strength (0-1) and the "
        "supporting examples (evidence)."
    )


class SubsumptionInput(PromptModel):
    level: int = Field(ge=2, le=4)
    higher: PatternItem
    lower: list[PatternItem] = Field(min_length=1)


class SubsumptionOutput(PromptModel):
    subsumes: bool
    uncovered_ids: list[str] = []
    message: str


def render_subsumes(inputs: SubsumptionInput) -> str:
    return (
        f"Verify that the higher level abstracts the lower level (vertical consistency).\n\n"
        f"Level {inputs.level}:\n{_pattern(inputs.higher)}\n\nLevel {inputs.level - 1}:\n"
        + "\n".join(_pattern(p) for p in inputs.lower)
        + "\n\nDoes it subsume every lower item? List the ids it does not cover."
    )


class ContradictionInput(PromptModel):
    a: PatternItem
    b: PatternItem


class ContradictionOutput(PromptModel):
    contradicts: bool
    shared_conditions: list[str] = []
    message: str


def render_contradicts(inputs: ContradictionInput) -> str:
    return (
        "Check if patterns have conflicting conditions/actions: the same conditions "
        f"with conflicting actions.\n\n{_pattern(inputs.a)}\n{_pattern(inputs.b)}\n\n"
        + bullet_list(["Do they share their conditions?", "Do their actions conflict?"])
    )


EXTRACT_PATTERN = Prompt(
    name="dream.extract_pattern",
    version=1,
    input_type=PatternExtractionInput,
    output_type=ExtractedPattern,
    system=SYSTEM,
    render=render_extract,
)
NAME_ABSTRACTION = Prompt(
    name="dream.name_abstraction",
    version=2,
    input_type=AbstractionInput,
    output_type=AbstractionOutput,
    system=SYSTEM,
    render=render_abstraction,
)
GROUP_LEVEL = Prompt(
    name="dream.group_level",
    version=1,
    input_type=GroupingInput,
    output_type=GroupingOutput,
    system=SYSTEM,
    render=render_group,
)
CONNECT = Prompt(
    name="dream.connect",
    version=1,
    input_type=ConnectionInput,
    output_type=ConnectionOutput,
    system=SYSTEM,
    render=render_connect,
)
SUBSUMES = Prompt(
    name="dream.subsumes",
    version=1,
    input_type=SubsumptionInput,
    output_type=SubsumptionOutput,
    system=SYSTEM,
    render=render_subsumes,
)
CONTRADICTS = Prompt(
    name="dream.contradicts",
    version=1,
    input_type=ContradictionInput,
    output_type=ContradictionOutput,
    system=SYSTEM,
    render=render_contradicts,
)

PROMPTS: tuple[Prompt, ...] = (EXTRACT_PATTERN, NAME_ABSTRACTION, GROUP_LEVEL, CONNECT, SUBSUMES, CONTRADICTS)
