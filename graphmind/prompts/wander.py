"""Wander prompts (wander-technical-spec): dwelling, resonance, crystallization, validation.

``wander.dwell`` is the seed's simple dwelling prompt, verbatim, with one addition: the
memories near the two loci, the only facts the dweller may use. ``wander.dwell_rlm`` is the
REPL-based dweller: its system prompt is the seed's ``RLM_DWELLER_SYSTEM_PROMPT`` (the counts
of its first lines move to the message, so the system text stays the same and cacheable); the
model answers in prose, as the seed asks: ```repl blocks of code to run in the sandboxed REPL
(graphmind.wander.repl; the variables it sets stay for the next block and turn), and
``FINAL({...})`` with the dwelling JSON, in a block or on a line of its own (``RlmTurn.text``;
``graphmind.wander.rlm`` reads it).
``wander.sub_query`` is the REPL's ``llm_query``: the seed's sub-LLM system prompt.
"""

from __future__ import annotations

from pydantic import Field

from graphmind.llm.base import Prompt
from graphmind.prompts._models import MemoryItem, PromptModel, Unit, bullet_list, format_memories
from graphmind.prompts.wander_seed import RLM_DWELLER_SYSTEM_PROMPT as RLM_DWELLER_SYSTEM_PROMPT
from graphmind.prompts.wander_seed import SIMPLE_DWELLING_PROMPT as SIMPLE_DWELLING_PROMPT

SYSTEM = (
    "You are a Wander dweller exploring idea space. Reflect only on the concepts, themes and "
    "memories you are given; cite memory ids, and say so when the memories do not support an idea."
)

MEMORIES_SECTION = "MEMORIES NEAR THESE LOCI (the only facts you may use):\n{memories}\n\n"


class LocusItem(PromptModel):
    """A point in idea space."""

    id: str = Field(min_length=1)
    concept: str = Field(min_length=1)
    domains: list[str] = []
    abstraction_level: Unit | None = None


class DwellInput(PromptModel):
    current: LocusItem
    next: LocusItem
    recent_themes: list[str] = []
    active_resonances: list[str] = []
    memories: list[MemoryItem] = []


class DwellOutput(PromptModel):
    """The seed's JSON answer, plus the memories it drew on."""

    connection: str
    tension: str
    bridge: str
    surprise: str
    possibility: str
    themes: list[str] = Field(default=[], max_length=5)
    interestingness: Unit
    actionability: Unit
    memory_ids: list[str] = []


def render_dwell(inputs: DwellInput) -> str:
    values = {
        "current_concept": inputs.current.concept,
        "next_concept": inputs.next.concept,
        "current_domains": ", ".join(inputs.current.domains) or "unknown",
        "next_domains": ", ".join(inputs.next.domains) or "unknown",
        "current_abstraction": _level(inputs.current.abstraction_level),
        "next_abstraction": _level(inputs.next.abstraction_level),
        "recent_themes": ", ".join(inputs.recent_themes) or "(none yet)",
        "active_resonances": bullet_list(inputs.active_resonances),
    }
    text = SIMPLE_DWELLING_PROMPT
    for name, value in values.items():
        text = text.replace("{" + name + "}", value)
    memories = MEMORIES_SECTION.format(memories=format_memories(inputs.memories))
    return text.replace("Reflect on this encounter.", memories + "Reflect on this encounter.", 1)


def _level(value: float | None) -> str:
    return "unknown" if value is None else f"{value:.2f}"


class ResidueItem(PromptModel):
    """What one step left behind (a Residue node)."""

    id: str = Field(min_length=1)
    connection: str = ""
    tension: str = ""
    bridge: str = ""
    surprise: str = ""
    possibility: str = ""
    themes: list[str] = []
    interestingness: Unit | None = None
    actionability: Unit | None = None


def residue_text(r: ResidueItem) -> str:
    """A residue's five answers and its themes as one text (evidence, term matching)."""
    return " ".join([r.connection, r.tension, r.bridge, r.surprise, r.possibility, *r.themes])


class ResonanceItem(PromptModel):
    id: str = Field(min_length=1)
    themes: list[str] = Field(min_length=1)
    occurrences: int = Field(default=1, ge=0)
    strength: float = Field(default=1.0, ge=0.0)


class ResonanceInput(PromptModel):
    residue: ResidueItem
    candidates: list[ResonanceItem] = []


class ResonanceMatch(PromptModel):
    resonance_id: str
    shared_themes: list[str] = Field(min_length=1)
    strength: Unit


class ResonanceOutput(PromptModel):
    matches: list[ResonanceMatch] = []
    new_themes: list[str] = []


def _residue(r: ResidueItem) -> str:
    parts = [
        f"{k}: {v}"
        for k, v in (
            ("connection", r.connection),
            ("tension", r.tension),
            ("bridge", r.bridge),
            ("surprise", r.surprise),
            ("possibility", r.possibility),
        )
        if v
    ]
    return f"[{r.id}] themes: {', '.join(r.themes) or '-'}\n  " + "\n  ".join(parts)


def _resonance(r: ResonanceItem) -> str:
    return f"[{r.id}] {', '.join(r.themes)} (seen {r.occurrences}x)"


def render_resonance(inputs: ResonanceInput) -> str:
    candidates = bullet_list(_resonance(c) for c in inputs.candidates)
    return (
        "A new residue, and the resonances (recurring patterns) seen so far:\n\n"
        f"{_residue(inputs.residue)}\n\nRESONANCES:\n{candidates}\n\n"
        "Which resonances does this residue reinforce, through which shared themes, and how "
        "strongly (0.0-1.0)? Which of its themes are new?"
    )


class CrystalInput(PromptModel):
    locus: LocusItem
    resonances: list[ResonanceItem] = []
    residues: list[ResidueItem] = []
    memories: list[MemoryItem] = []
    min_evidence: int = Field(default=2, ge=1)


class CrystalOutput(PromptModel):
    """A validated insight, or ``formed=False`` when the evidence does not carry one."""

    formed: bool
    insight: str = ""
    confidence: Unit = 0.0
    actionability: Unit = 0.0
    domains: list[str] = []
    evidence_ids: list[str] = []


def render_crystallize(inputs: CrystalInput) -> str:
    resonances = bullet_list(_resonance(r) for r in inputs.resonances)
    residues = "\n".join(_residue(r) for r in inputs.residues) or "(none)"
    return (
        f"CURRENT LOCUS:\n{inputs.locus.concept}\n"
        f"- Domains: {', '.join(inputs.locus.domains) or 'unknown'}\n\n"
        f"ACTIVE RESONANCES (patterns we've seen before):\n{resonances}\n\nRESIDUES:\n{residues}\n\n"
        f"{MEMORIES_SECTION.format(memories=format_memories(inputs.memories))}"
        f"Crystallize: state the one insight these resonances support, if at least "
        f"{inputs.min_evidence} pieces of evidence carry it, with its confidence, actionability, "
        "domains and the ids of its supporting evidence. Otherwise answer formed=false."
    )


class CrystalCheckInput(PromptModel):
    insight: str = Field(min_length=1)
    evidence: list[MemoryItem] = Field(min_length=1)


class CrystalCheckOutput(PromptModel):
    holds: bool
    confidence: Unit
    unsupported: list[str] = []
    notes: str


def render_validate(inputs: CrystalCheckInput) -> str:
    """The seed's answer-verification query, with the supporting evidence as its context."""
    return f"Does this insight hold? '{inputs.insight}'\n\nContext:\n{format_memories(inputs.evidence)}"


DWELL = Prompt(
    name="wander.dwell", version=1, input_type=DwellInput, output_type=DwellOutput, system=SYSTEM, render=render_dwell
)
RESONANCE = Prompt(
    name="wander.resonance",
    version=1,
    input_type=ResonanceInput,
    output_type=ResonanceOutput,
    system=SYSTEM,
    render=render_resonance,
)
CRYSTALLIZE = Prompt(
    name="wander.crystallize",
    version=1,
    input_type=CrystalInput,
    output_type=CrystalOutput,
    system=SYSTEM,
    render=render_crystallize,
)
VALIDATE_CRYSTAL = Prompt(
    name="wander.validate_crystal",
    version=1,
    input_type=CrystalCheckInput,
    output_type=CrystalCheckOutput,
    system=SYSTEM,
    render=render_validate,
)

RLM_SYSTEM = (
    RLM_DWELLER_SYSTEM_PROMPT.replace("{hot_count} recent loci", "the recent loci")
    .replace("{warm_count} compressed", "the compressed")
    .replace("{resonance_count} detected", "the detected")
    .replace("{trace_count} steps", "the steps")
)


class RlmDwellInput(PromptModel):
    dwell: DwellInput
    counts: dict[str, int] = {}
    """hot_memory, warm_memory, resonances, trace: how many items each REPL variable holds."""
    transcript: list[str] = []
    """The code run so far in this dwelling, each with its output."""
    kept: list[str] = []
    """The variables the session's earlier code left in the REPL (``theme_buffer``...)."""


class RlmTurn(PromptModel):
    """The model's reply as it wrote it: prose, ```repl blocks, perhaps ``FINAL({...})``."""

    text: str


def render_rlm(inputs: RlmDwellInput) -> str:
    counts = ", ".join(f"{name}: {n}" for name, n in inputs.counts.items()) or "empty"
    kept = ", ".join(inputs.kept) or "none yet"
    runs = "\n\n".join(inputs.transcript) or "(no code run yet)"
    return (
        f"{render_dwell(inputs.dwell)}\n\nREPL MEMORY ({counts}).\nYOUR VARIABLES FROM EARLIER CODE: {kept}."
        f"\n\nCODE RUN SO FAR:\n{runs}\n\n"
        "Write Python in ```repl blocks to explore; the variables you set stay for your next blocks "
        "(functions do not). When you are ready, give the dwelling JSON above with FINAL({...}), "
        "in a ```repl block or on a line of its own."
    )


class SubQueryInput(PromptModel):
    prompt: str = Field(min_length=1)
    context: str = ""


class SubQueryOutput(PromptModel):
    answer: str


def render_sub_query(inputs: SubQueryInput) -> str:
    return f"{inputs.prompt}\n\nContext:\n{inputs.context}" if inputs.context else inputs.prompt


DWELL_RLM = Prompt(
    name="wander.dwell_rlm",
    version=2,
    input_type=RlmDwellInput,
    output_type=RlmTurn,
    system=RLM_SYSTEM,
    render=render_rlm,
    text_field="text",
)
SUB_QUERY = Prompt(
    name="wander.sub_query",
    version=1,
    input_type=SubQueryInput,
    output_type=SubQueryOutput,
    system="You are a helpful assistant analyzing a chunk of context.",
    render=render_sub_query,
)

PROMPTS: tuple[Prompt, ...] = (DWELL, RESONANCE, CRYSTALLIZE, VALIDATE_CRYSTAL, DWELL_RLM, SUB_QUERY)
