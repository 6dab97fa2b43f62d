"""Detectors of the seed's four guard rails (P02, "Guard Rails"), as pure functions.

- mechanical execution: the internal monologue is short (under ``MIN_MONOLOGUE_WORDS``), or
  there are earlier findings and it refers to none of them (no earlier node type, memory id or
  content word of an earlier synthesis);
- premature crystallization: [CRYSTALLIZE] while the V1 coverage score is still 0.5 or more
  (the seed's orchestrator does not honour it then);
- infinite continuation: the step budget is spent, or [CONTINUE] twice in a row without a
  query (stuck: one [CONTINUE] without a query gets the stuck prompt first);
- hallucination: the finding or the monologue states an atom (number, date, file path, quoted
  text, name; see context/grounding.py) that no query result, the stimulus or the sender
  holds, or cites a memory id that no tool returned.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from graphmind.context.grounding import Sources, unsupported
from graphmind.context.templates import TEMPLATE_WORDS as CONTEXT_WORDS
from graphmind.prompts._models import NODE_TYPES, MemoryItem
from graphmind.prompts.ruminate import FindingSummary, RuminationStepOutput
from graphmind.ruminate.offline import TEMPLATE_WORDS as STEP_WORDS
from graphmind.text import content_terms

MIN_MONOLOGUE_WORDS = 20
PREMATURE_BELOW = 0.5
_ALLOWED = (
    CONTEXT_WORDS
    | STEP_WORDS
    | {t.lower() for t in NODE_TYPES}
    | {w.lower() for t in NODE_TYPES for w in t.split("_")}
    | {"continue", "crystallize", "dreamer", "gap", "gaps", "lens", "lenses"}
)


def is_mechanical(output: RuminationStepOutput, earlier: Sequence[FindingSummary]) -> bool:
    monologue = output.internal_monologue
    if len(monologue.split()) < MIN_MONOLOGUE_WORDS:
        return True
    found = [f for f in earlier if f.found]
    if not found:
        return False
    lowered = monologue.lower()
    if any(f.node_type.lower() in lowered or f.node_type.replace("_", " ").lower() in lowered for f in found):
        return False
    if any(i.lower() in lowered for f in found for i in f.memory_ids):
        return False
    earlier_terms = {t for f in found for t in content_terms(f.synthesis)}
    return not earlier_terms & set(content_terms(monologue))


def is_premature(output: RuminationStepOutput, coverage_score: float) -> bool:
    return output.signal == "CRYSTALLIZE" and coverage_score >= PREMATURE_BELOW


def is_stuck(output: RuminationStepOutput, queried: bool) -> bool:
    return output.signal == "CONTINUE" and not queried


def hallucinated(
    output: RuminationStepOutput, returned: Iterable[MemoryItem], stimulus: str, sender: str | None
) -> list[str]:
    """What the step claims that no source holds: unsupported atoms and unknown memory ids."""
    items = list(returned)
    sources = Sources(
        [stimulus, sender, *[m.properties or m.text for m in items], *[m.id for m in items]], allowed_words=_ALLOWED
    )
    claims = [
        a.text for text in (output.finding.synthesis, output.internal_monologue) for a in unsupported(text, sources)
    ]
    known = {m.id for m in items}
    claims += [f"[{i}]" for i in output.finding.memory_ids if i not in known]
    return list(dict.fromkeys(claims))
