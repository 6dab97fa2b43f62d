"""From a draft of the seven sections to a validated Context Object (pure logic).

1. **Honest gaps.** A section none of whose labels (``SECTION_LABELS``) rumination found says
   so in one sentence (``NO_DATA``), whatever the draft wrote: a feeling is never invented.
2. **Grounding.** Every atom of a section (``grounding.py``) must be held by the section's
   sources: the memories of its labels, the stimulus, the sender and the mind's identity.
   Any unsupported atom raises GroundingError naming it.
3. **Citations.** Each section lists the ids of the memories whose values it shows.
4. **Budget.** The whole document stays within ``TOKEN_BUDGET`` tokens. Over budget, sections
   are cut from their last line up, in ``TRIM_ORDER`` (least needed first): first down to the
   spec's upper allocation for the section, then, if still over, to its lower allocation, and
   last (only under budgets far below the spec's) line by line down to its first line. Cutting only removes
   lines and marks the cut, so it never breaks grounding.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from graphmind.context.grounding import Sources, atoms, unsupported
from graphmind.context.model import (
    SECTION_LABELS, TOKEN_BUDGET, ContextObject, ContextSection, ContextValidation, GroundingIssue,
    render_markdown,
)
from graphmind.context.templates import NO_DATA, TEMPLATE_WORDS
from graphmind.text import approximate_tokens
from graphmind.errors import GroundingError
from graphmind.prompts._models import MemoryItem
from graphmind.prompts.context import SECTION_TITLES, ContextSections

TRIM_ORDER = ("relevant_history", "technical_context", "emotional_resonance", "strategic_direction",
              "identity", "constraints", "current_situation")
"""Which sections are cut first when the document is over budget (Current Situation last:
it quotes the stimulus the Driver answers)."""
ALLOCATIONS = {
    "identity": (150, 250), "current_situation": (250, 400), "relevant_history": (300, 500),
    "strategic_direction": (200, 350), "emotional_resonance": (150, 250),
    "technical_context": (250, 400), "constraints": (100, 200),
}
"""The spec's per-section token allocation (lower, upper)."""
TRIM_MARK = "(trimmed to fit the token budget)"
HEADINGS = {word.lower() for title in SECTION_TITLES.values() for word in title.split()}

TokenCounter = Callable[[str], int]


def assemble(draft: ContextSections, *, stimulus: str, sender: str | None,
             identity: MemoryItem | None, memories: Sequence[MemoryItem],
             count_tokens: TokenCounter = approximate_tokens, counter_name: str = "local estimate",
             budget: int = TOKEN_BUDGET, composer: str = "llm",
             rejected: Sequence[GroundingIssue] = ()) -> ContextObject:
    """The Context Object for ``draft``, or GroundingError naming what its sources lack."""
    by_section = {key: [m for m in memories if m.label in labels] for key, labels in SECTION_LABELS.items()}
    texts = {key: _honest(key, getattr(draft, key), by_section[key], identity) for key in SECTION_TITLES}
    checked, issues = 0, []
    for key, text in texts.items():
        sources = _sources(stimulus, sender, identity, by_section[key])
        checked += len(atoms(text))
        issues += [GroundingIssue(section=key, kind=a.kind, text=a.text) for a in unsupported(text, sources)]
    if issues:
        raise GroundingError(
            "the Context Object would state what the graph does not hold: "
            + "; ".join(f"{i.kind} {i.text!r} in {i.section}" for i in issues),
            atoms=[(i.section, i.kind, i.text) for i in issues])
    texts, trimmed, total = _fit(texts, count_tokens, budget)
    sections = [ContextSection(key=key, title=title, text=texts[key],
                               node_ids=_drawn_from(texts[key], by_section[key], identity, key),
                               tokens=approximate_tokens(texts[key]))
                for key, title in SECTION_TITLES.items()]
    validation = ContextValidation(
        valid=total <= budget, sections_present=all(s.text for s in sections), token_count=total,
        token_budget=budget, within_budget=total <= budget, token_counter=counter_name,
        atoms_checked=checked, trimmed=trimmed, composer=composer, rejected_draft=list(rejected))
    return ContextObject(citizen=_name(identity), stimulus=stimulus, sender=sender,
                         generated_at=datetime.now(UTC), sections=sections, token_count=total,
                         validation=validation)


def _honest(key: str, text: str, found: list[MemoryItem], identity: MemoryItem | None) -> str:
    if key == "current_situation" or found or (key == "identity" and identity is not None):
        return text.strip()
    return NO_DATA[key]


def _sources(stimulus: str, sender: str | None, identity: MemoryItem | None,
             found: list[MemoryItem]) -> Sources:
    values: list[object] = [stimulus, sender]
    if identity is not None:
        values.append(identity.properties or identity.text)
    values += [m.properties or m.text for m in found]
    return Sources(values, allowed_words=TEMPLATE_WORDS | HEADINGS)


def _drawn_from(text: str, found: list[MemoryItem], identity: MemoryItem | None, key: str) -> list[str]:
    """Ids of the memories one of whose values (4+ characters) the section shows."""
    candidates = ([identity] if key == "identity" and identity is not None else []) + found
    shown = " ".join(text.lower().split())
    return [m.id for m in candidates if any(v in shown for v in _values(m))]


def _values(memory: MemoryItem) -> list[str]:
    values: list[str] = []
    for value in memory.properties.values():
        items = value if isinstance(value, list) else [value]
        values += [" ".join(str(v).lower().split()) for v in items if isinstance(v, str) and len(v) >= 4]
    return values


def _name(identity: MemoryItem | None) -> str | None:
    if identity is None:
        return None
    name = identity.prop("name")
    return str(name) if name else identity.id


def _fit(texts: dict[str, str], count_tokens: TokenCounter,
         budget: int) -> tuple[dict[str, str], list[str], int]:
    """Cut sections until ``count_tokens`` of the document is within ``budget``.

    Cuts are planned with the local estimate; if the counter still says over budget (a real
    tokenizer may count more), the plan is redone with the budget lowered by the excess.
    """
    texts, trimmed = dict(texts), []
    target = budget
    for _ in range(4):
        for stage in (1, 0):
            for key in TRIM_ORDER:
                if approximate_tokens(render_markdown(texts)) <= target:
                    break
                if approximate_tokens(texts[key]) > ALLOCATIONS[key][stage]:
                    texts[key] = cut(texts[key], ALLOCATIONS[key][stage])
                    trimmed += [key] if key not in trimmed else []
        for key in TRIM_ORDER:  # far below the spec's budget: drop lines one by one
            while approximate_tokens(render_markdown(texts)) > target and _drop_line(texts, key):
                trimmed += [key] if key not in trimmed else []
        total = count_tokens(render_markdown(texts))
        if total <= budget:
            break
        target -= total - budget
    return texts, trimmed, total


def _drop_line(texts: dict[str, str], key: str) -> bool:
    """Drop the last line of a section (above its first); False when none is left to drop."""
    lines = [line for line in texts[key].splitlines() if line != TRIM_MARK]
    if len(lines) <= 1:
        return False
    texts[key] = "\n".join([*lines[:-1], TRIM_MARK])
    return True


def cut(text: str, limit: int) -> str:
    """``text`` cut from its last line up to at most ``limit`` estimated tokens, marked as cut;
    the first line is kept (shortened word by word if it alone is too long)."""
    lines = text.splitlines()
    kept = lines[:1]
    for line in lines[1:]:
        if approximate_tokens("\n".join([*kept, line, TRIM_MARK])) > limit:
            break
        kept.append(line)
    words = kept[0].split()
    while len(words) > 1 and approximate_tokens("\n".join([" ".join(words), *kept[1:], TRIM_MARK])) > limit:
        words.pop()
    kept[0] = " ".join(words)
    return "\n".join([*kept, TRIM_MARK])
