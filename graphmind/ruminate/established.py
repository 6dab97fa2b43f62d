"""What the exploration established: the Dreamer's findings, read for the Context Object (pure).

Each exploring step the Dreamer answered (a gap or a thread step; not the engine's own first
look or depth read, not an unreadable answer the engine restated, not a synthesis the
hallucination guard set aside) leaves a finding: its synthesis and its monologue, and the
memories it cites. Its sentences are read memory by memory:

- a sentence (or clause: "; " and " — " split it) that **names** one memory (its id, or a
  short name value such as its component, approach or topic) and says, in the Dreamer's own
  words, that it does not matter here (checks.DISMISSAL: "not relevant", "unrelated", "a dead
  end", "a red herring", "has no bearing", "a different matter", ...) **dismisses** it; one
  naming several ("X is unrelated to Y") is ambiguous and counts for neither;
- a sentence that names it without that **supports** it; a memory the finding cites without
  naming it is supported when no sentence of the finding dismisses anything.

A memory's own words never count as the Dreamer's: its text and values are masked out of a
sentence before the dismissal is looked for, and once relevance has chosen, a finding's note
keeps only the sentences that quote no memory it dropped (``restated``) (the offline Dreamer quotes memories; a strategy
whose applicability says "does not apply to swarms" is not dismissed by being quoted). A later
finding that supports a dismissed memory takes the dismissal back.

relevance.select uses the verdicts: support adds to a memory's score (it ranks first in its
section, and the trace says which step established it); dismissal drops it. The sections cite
the findings that support the memories they show (``ContextSection.finding_ids``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from graphmind.context.checks import DISMISSAL
from graphmind.prompts._models import MemoryItem
from graphmind.prompts.context import FindingNote
from graphmind.ruminate.result import StepRecord
from graphmind.text import sentences

UNREADABLE = "Unreadable answer: treated as [CONTINUE] once."
"""The signal reasoning of a step the engine recorded for an answer it could not read."""
DREAMER_KINDS = ("gap", "thread")
_NAME_WORDS = 5
"""A value of at most this many words names a memory; a longer one is quoted text."""
_NAME_KEYS = ("name", "partner_name", "component", "approach", "topic", "emotion", "file_path", "title")


@dataclass(frozen=True)
class Established:
    """The verdicts of the findings: memory id -> the findings (by id) that support it, and
    memory id -> the finding that dismissed it (no later one supporting it)."""

    findings: tuple[FindingNote, ...] = ()
    supported: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    dismissed: Mapping[str, str] = field(default_factory=dict)

    def support(self, memory_id: str) -> int:
        return len(self.supported.get(memory_id, ()))

    def text(self, finding_id: str) -> str:
        return next((f.text for f in self.findings if f.id == finding_id), "")


def read(steps: Sequence[StepRecord], memories: Mapping[str, MemoryItem]) -> Established:
    """The verdicts of the Dreamer's findings, in step order, on the memories returned."""
    notes: list[FindingNote] = []
    supported: dict[str, list[str]] = {}
    dismissed: dict[str, str] = {}
    for step in steps:
        if step.kind not in DREAMER_KINDS or step.hallucinated or step.signal_reasoning == UNREADABLE:
            continue
        finding_id = f"step-{step.number}"
        text = " ".join(t.strip() for t in (step.synthesis, step.monologue) if t and t.strip())
        backs, drops = verdicts(text, step.found_ids, memories)
        for memory_id in backs:
            supported.setdefault(memory_id, []).append(finding_id)
            dismissed.pop(memory_id, None)
        for memory_id in drops:
            dismissed[memory_id] = finding_id
            supported.pop(memory_id, None)
        if backs or drops:
            notes.append(FindingNote(id=finding_id, text=_clean(step.synthesis), supports=backs, dismisses=drops))
    return Established(
        findings=tuple(notes), supported={k: tuple(v) for k, v in supported.items() if v}, dismissed=dismissed
    )


def verdicts(text: str, cited: Iterable[str], memories: Mapping[str, MemoryItem]) -> tuple[list[str], list[str]]:
    """(the memories ``text`` supports, those it dismisses), ``cited`` being the finding's ids."""
    backs: list[str] = []
    drops: list[str] = []
    any_dismissal = False
    for sentence in sentences(text, fine=True) or [text]:
        own = _masked(sentence, memories.values())  # the Dreamer's own words
        named = [i for i, m in memories.items() if _names(sentence, own, m)]
        dismissive = bool(DISMISSAL.search(own))
        any_dismissal |= dismissive
        if dismissive and len(named) == 1:
            drops.append(named[0])
        elif not dismissive:
            backs += named  # a dismissal naming several ("X is unrelated to Y") is ambiguous: neither
    if not any_dismissal:
        backs += [i for i in cited if i in memories]
    backs = [i for i in dict.fromkeys(backs) if i not in drops]
    return backs, list(dict.fromkeys(drops))


def _names(sentence: str, own: str, memory: MemoryItem) -> bool:
    """Whether the sentence names the memory: its id anywhere, a name value in ``own`` words."""
    if re.search(rf"(?<![\w-]){re.escape(memory.id.lower())}(?![\w-])", sentence.lower()):
        return True
    lowered = own.lower()
    for key in _NAME_KEYS:
        value = memory.properties.get(key)
        if (
            isinstance(value, str)
            and 4 <= len(value)
            and len(value.split()) <= _NAME_WORDS
            and value.lower() in lowered
        ):
            return True
    return False


def _masked(sentence: str, memories: Iterable[MemoryItem]) -> str:
    """The sentence without any memory's own sentences or values (what the Dreamer quoted)."""
    masked = sentence
    for memory in memories:
        pieces = [*sentences(memory.text), *_values(memory)]
        quoted = {p.strip().rstrip(".") for p in pieces if len(p.split()) > _NAME_WORDS}  # not a name
        for piece in sorted(quoted, key=len, reverse=True):
            masked = re.sub(re.escape(piece), " ", masked, flags=re.IGNORECASE)
    return masked


def _values(memory: MemoryItem) -> list[str]:
    out: list[str] = []
    for value in memory.properties.values():
        out += [str(v) for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)]
    return out


def restated(findings: Iterable[FindingNote], memories: Mapping[str, MemoryItem], kept: set[str]) -> list[FindingNote]:
    """The findings as the Context Object restates them, once relevance kept ``kept`` of the
    ``memories`` read: supporting only kept memories, and without the sentences that quote a
    dropped one (``own_words``)."""
    dropped = {i: m for i, m in memories.items() if i not in kept}
    notes = [
        f.model_copy(update={"text": own_words(f.text, dropped), "supports": [i for i in f.supports if i in kept]})
        for f in findings
    ]
    return [f for f in notes if f.text or f.supports]  # nothing left to say or cite: no note


def own_words(text: str, memories: Mapping[str, MemoryItem]) -> str:
    """``text`` without the sentences that quote one of ``memories`` (the offline Dreamer lists
    what a query returned): a finding restated in the Context Object is the Dreamer's conclusion,
    never the words of a memory relevance dropped ("I can send organic ones tomorrow" of a turn)."""
    kept = [s for s in sentences(_clean(text)) if _masked(s, memories.values()) == s]
    return " ".join(kept) if kept else ""


def _clean(text: str) -> str:
    return " ".join(re.sub(r"\s*\[[\w:.-]+\]", "", text).split())
