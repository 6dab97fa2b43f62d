"""From a draft of the seven sections to a validated Context Object (pure logic).

1. **Honest gaps.** A section none of whose labels (``SECTION_LABELS``) rumination found says
   so in one sentence (``NO_DATA``), whatever the draft wrote: a feeling is never invented.
2. **Grounding.** Every atom of a section (``grounding.py``) must be held by the section's
   sources: the memories of its labels, the stimulus, the sender and the mind's identity.
   Any unsupported atom raises GroundingError naming it.
3. **Citations.** Each section lists the ids of the memories whose values it shows (of a turn,
   a line quoting it).
4. **Budget.** The whole document stays within ``TOKEN_BUDGET`` tokens. Over budget, the
   least relevant units (lines; a constraint's whole block) are dropped one by one until it
   fits (``_fit``); a section keeps its first line (and the headings above it). Dropping only
   removes units and marks the cut, so it never breaks grounding.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from graphmind.context import checks
from graphmind.context.grounding import Sources, atoms, unsupported
from graphmind.context.history import quoted_ids
from graphmind.context.model import (
    SECTION_LABELS,
    TOKEN_BUDGET,
    ContextObject,
    ContextSection,
    ContextValidation,
    GroundingIssue,
    render_markdown,
)
from graphmind.context.templates import NO_DATA, TEMPLATE_WORDS
from graphmind.errors import GroundingError
from graphmind.prompts._models import MemoryItem
from graphmind.prompts.context import SECTION_TITLES, ContextSections, FindingNote
from graphmind.text import approximate_tokens, term_set

TRIM_ORDER = (
    "relevant_history",
    "technical_context",
    "emotional_resonance",
    "strategic_direction",
    "identity",
    "constraints",
    "current_situation",
)
"""Which sections are cut first when the document is over budget (Current Situation last:
it quotes the stimulus the Driver answers)."""
TRIM_MARK = "(trimmed to fit the token budget)"
HEADINGS = {word.lower() for title in SECTION_TITLES.values() for word in title.split()}

TokenCounter = Callable[[str], int]


def assemble(
    draft: ContextSections,
    *,
    stimulus: str,
    sender: str | None,
    identity: MemoryItem | None,
    memories: Sequence[MemoryItem],
    count_tokens: TokenCounter = approximate_tokens,
    counter_name: str = "local estimate",
    budget: int = TOKEN_BUDGET,
    composer: str = "llm",
    rejected: Sequence[GroundingIssue] = (),
    findings: Sequence[FindingNote] = (),
    weak_match: bool = False,
) -> ContextObject:
    """The Context Object for ``draft``, or GroundingError naming what its sources lack."""
    by_section = {key: [m for m in memories if m.label in labels] for key, labels in SECTION_LABELS.items()}
    texts = {key: _honest(key, getattr(draft, key), by_section[key], identity) for key in SECTION_TITLES}
    checked, issues = 0, []
    for key, text in texts.items():
        sources = _sources(stimulus, sender, identity, by_section[key])
        checked += len(atoms(text))
        issues += [GroundingIssue(section=key, kind=a.kind, text=a.text) for a in unsupported(text, sources)]
    name = str(identity.prop("name")) if identity is not None and identity.prop("name") else None
    form = [
        GroundingIssue(section=key, kind="form", text=what)
        for key, what in checks.problems(
            texts, stimulus=stimulus, identity_name=name, tokens=checks.MIN_TOKENS, weak_match=weak_match
        )
    ]
    if issues or (form and composer == "llm"):
        raise GroundingError(
            "the Context Object would state what the graph does not hold or break the spec's form: "
            + "; ".join(f"{i.kind} {i.text!r} in {i.section}" for i in [*issues, *form]),
            atoms=[(i.section, i.kind, i.text) for i in [*issues, *form]],
        )
    focus = f"{stimulus} {sender or ''}"
    texts, trimmed, total = _fit(texts, count_tokens, budget, focus)
    sections = _sections(texts, by_section, identity, findings)
    note = ""
    limited = bool(trimmed) or budget < checks.MIN_TOKENS  # short because the budget asks it
    if total < checks.MIN_TOKENS and not limited:  # short because the mind holds no more
        drawn = {i for s in sections for i in s.node_ids} - ({identity.id} if identity else set())
        note = checks.short_note(total, len(drawn))
        with_note = count_tokens(render_markdown(texts, note))
        note, total, limited = (note, with_note, False) if with_note <= budget else ("", total, True)
    form += [
        GroundingIssue(section=key, kind="form", text=what)
        for key, what in checks.problems({}, stimulus="", identity_name=None, note=note, tokens=total, trimmed=limited)
        if key == "document"
    ]
    validation = ContextValidation(
        valid=total <= budget and not form,
        sections_present=all(s.text for s in sections),
        token_count=total,
        token_budget=budget,
        within_budget=total <= budget,
        token_counter=counter_name,
        atoms_checked=checked,
        trimmed=trimmed,
        composer=composer,
        rejected_draft=list(rejected),
        problems=form,
        minimum_tokens=checks.MIN_TOKENS,
        short=bool(note),
    )
    return ContextObject(
        citizen=_name(identity),
        stimulus=stimulus,
        sender=sender,
        generated_at=datetime.now(UTC),
        sections=sections,
        token_count=total,
        validation=validation,
        note=note,
    )


def _sections(
    texts: dict[str, str],
    by_section: dict[str, list[MemoryItem]],
    identity: MemoryItem | None,
    findings: Sequence[FindingNote] = (),
) -> list[ContextSection]:
    sections = []
    for key, title in SECTION_TITLES.items():
        drawn = _drawn_from(texts[key], by_section[key], identity, key)
        sections.append(
            ContextSection(
                key=key,
                title=title,
                text=texts[key],
                node_ids=drawn,
                finding_ids=[f.id for f in findings if set(f.supports) & set(drawn)],
                tokens=approximate_tokens(texts[key]),
            )
        )
    return sections


def _honest(key: str, text: str, found: list[MemoryItem], identity: MemoryItem | None) -> str:
    if key == "current_situation" or found or (key == "identity" and identity is not None):
        return text.strip()
    return NO_DATA[key]


def _sources(stimulus: str, sender: str | None, identity: MemoryItem | None, found: list[MemoryItem]) -> Sources:
    values: list[object] = [stimulus, sender]
    if identity is not None:
        values.append(identity.properties or identity.text)
    values += [m.properties or m.text for m in found]
    return Sources(values, allowed_words=TEMPLATE_WORDS | HEADINGS)


def _drawn_from(text: str, found: list[MemoryItem], identity: MemoryItem | None, key: str) -> list[str]:
    """Ids of the memories one of whose values (4+ characters) the section shows, and of the
    turns a line of it quotes (``history.quoted_ids``)."""
    candidates = ([identity] if key == "identity" and identity is not None else []) + found
    shown = " ".join(text.lower().split())
    quoted = set(quoted_ids(text, [m for m in candidates if m.label == "Turn"]))
    return [m.id for m in candidates if (m.id in quoted if m.label == "Turn" else any(v in shown for v in _values(m)))]


_CATEGORIES = frozenset(
    "success failure progress move strategy insight error verified unverified flagged invalidated".split()
)
"""Values many memories share (an experience's outcome or kind, a pattern's verification):
a section that says one shows no particular memory."""


def _values(memory: MemoryItem) -> list[str]:
    values: list[str] = []
    for value in memory.properties.values():
        items = value if isinstance(value, list) else [value]
        values += [" ".join(str(v).lower().split()) for v in items if isinstance(v, str) and len(v) >= 4]
    return [v for v in values if v not in _CATEGORIES]


def _name(identity: MemoryItem | None) -> str | None:
    if identity is None:
        return None
    name = identity.prop("name")
    return str(name) if name else identity.id


def _fit(
    texts: dict[str, str], count_tokens: TokenCounter, budget: int, focus: str
) -> tuple[dict[str, str], list[str], int]:
    """Drop the least relevant units until ``count_tokens`` of the document is within ``budget``.

    A unit is a line, or a whole block of Constraints (a deadline stays with its description,
    offset and impact). The unit sharing fewest terms with ``focus`` (the stimulus and sender)
    goes first; among equals, the one of the section earliest in ``TRIM_ORDER``, then the
    latest. A section's first line (with the headings above it) is never dropped (a section is
    never emptied, nor left a heading alone), and dropping stops as soon as the document fits.
    Cuts are planned with the local estimate; if the counter still says over budget (a real
    tokenizer may count more), the plan is redone with the budget lowered by the excess.
    """
    units = {key: _units(key, text) for key, text in texts.items()}
    trimmed: list[str] = []
    terms = term_set(focus)
    target = budget
    for _ in range(4):
        while approximate_tokens(render_markdown(_joined(units, trimmed))) > target:
            candidates = [
                (len(term_set(unit) & terms), TRIM_ORDER.index(key), -i, key, i)
                for key in TRIM_ORDER
                for i, unit in enumerate(units[key])
                if i > _first_line(units[key]) and unit.strip() and not _is_heading(unit)
            ]
            if not candidates:
                break
            *_, key, index = min(candidates)
            del units[key][index]
            _drop_orphan_headings(units[key])
            trimmed += [key] if key not in trimmed else []
        total = count_tokens(render_markdown(_joined(units, trimmed)))
        if total <= budget:
            break
        target -= total - budget
    return _joined(units, trimmed), trimmed, total


def _units(key: str, text: str) -> list[str]:
    if key == "constraints":
        return [block.strip() for block in re.split(r"\n\s*\n", text) if block.strip()]
    return text.splitlines()


def _first_line(units: list[str]) -> int:
    """The index of a section's first unit that is no heading ("Said in earlier conversations:")."""
    return next((i for i, unit in enumerate(units) if unit.strip() and not _is_heading(unit)), 0)


def _is_heading(unit: str) -> bool:
    return unit.rstrip().endswith(":") and "\n" not in unit.strip()


def _drop_orphan_headings(units: list[str]) -> None:
    """Remove a heading line ("Steps:") whose items are all gone, and doubled blank lines."""
    i = len(units) - 1
    while i > 0:
        following = units[i + 1] if i + 1 < len(units) else ""
        if (_is_heading(units[i]) or not units[i].strip()) and not following.strip():
            del units[i]
        i -= 1


def _joined(units: dict[str, list[str]], trimmed: list[str]) -> dict[str, str]:
    return {
        key: ("\n\n" if key == "constraints" else "\n").join(parts).strip()
        + (f"\n{TRIM_MARK}" if key in trimmed else "")
        for key, parts in units.items()
    }
