"""The Dreamer's conclusions in the sections they concern (pure).

A section that shows a memory some finding of the exploration supports (ruminate/established.py)
may carry that finding's conclusion: a sentence of the finding in the Dreamer's own words (not
a memory's text it quoted, which the section shows already), that dismisses nothing, frames
nothing as a continuation, dumps no node, and whose every atom the section's sources hold (the
grounding check, grounding.py). At most ``PER_SECTION`` sentences a section, each sentence
once in the document, under "What rumination established:". Nothing else is added: a finding
that fails any test is left out, never reworded.
"""

from __future__ import annotations

from collections.abc import Iterable

from graphmind.context import checks
from graphmind.context.grounding import Sources, unsupported
from graphmind.context.model import SECTION_LABELS
from graphmind.prompts._models import MemoryItem
from graphmind.prompts.context import ContextInput, FindingNote
from graphmind.text import sentences

PER_SECTION = 2
MIN_WORDS = 6
LEAD = "What rumination established:"


def add(texts: dict[str, str], inputs: ContextInput, allowed_words: Iterable[str]) -> dict[str, str]:
    """``texts`` with each section's grounded conclusions appended."""
    if not inputs.findings:
        return texts
    words = set(allowed_words) | {w.strip(":").lower() for w in LEAD.split()}
    quoted = [_normal(m.text) for m in inputs.memories]
    used: set[str] = set()
    out = dict(texts)
    for key, labels in SECTION_LABELS.items():
        if key == "identity" or key not in out:
            continue
        mine = [m for m in inputs.memories if m.label in labels]
        shown = {m.id for m in mine if _shows(out[key], m)}
        sources = Sources([inputs.stimulus, inputs.sender, *(_values(m) for m in mine)], allowed_words=words)
        chosen: list[str] = []
        for finding in _backing(inputs.findings, shown):
            for sentence in sentences(finding.text):
                norm = _normal(sentence)
                if len(chosen) == PER_SECTION or norm in used or not _fit(sentence, norm, quoted, sources):
                    continue
                chosen.append(sentence.strip())
                used.add(norm)
        if chosen:
            out[key] = "\n".join([out[key].rstrip(), "", LEAD, *(f"- {s}" for s in chosen)])
    return out


def _backing(findings: Iterable[FindingNote], shown: set[str]) -> list[FindingNote]:
    return [f for f in findings if set(f.supports) & shown]


def _fit(sentence: str, norm: str, quoted: list[str], sources: Sources) -> bool:
    if len(sentence.split()) < MIN_WORDS or any(norm in q or q in norm for q in quoted if q):
        return False
    if checks.DISMISSAL.search(sentence) or checks.continuation(sentence) or checks.is_dump(f"- {sentence}"):
        return False
    return not unsupported(f"- {sentence}", sources)


def _shows(text: str, memory: MemoryItem) -> bool:
    shown = _normal(text)
    return any(len(v) >= 4 and _normal(v) in shown for v in _strings(memory))


def _strings(memory: MemoryItem) -> list[str]:
    out: list[str] = []
    for value in memory.properties.values():
        out += [str(v) for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)]
    return out


def _values(memory: MemoryItem) -> object:
    return memory.properties or memory.text


def _normal(text: str) -> str:
    return " ".join(text.lower().replace("’", "'").split()).rstrip(".")
