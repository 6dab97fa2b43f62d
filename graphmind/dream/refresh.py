"""Stale patterns extracted again: a pattern some of whose experiences a newer memory superseded
or contradicted (marked ``stale`` in that capture's transaction, while others still hold) may
state the replaced fact in its name, conditions and actions, and the abstractions above it in
their generalisations. The next dream extracts it again from the experiences that still hold
(the same ``dream.extract_pattern`` call a new cluster gets, the latest ``SHOWN`` of them), so
its text says only what holds; it then counts as changed, and the ladder nodes above it are
named again (``Renamed``). A stale pattern left with no valid experience in the graph stays as
it is (the capture's transaction has invalidated it).

read (the valid experiences of the stale patterns) → the extraction inputs (pure) → the LLM →
the patterns' text replaced (pure).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from graphmind.dream import offline
from graphmind.dream.compress import SHOWN, describe
from graphmind.dream.entities import action_texts
from graphmind.dream.items import LadderNode, PatternState
from graphmind.dream.llm_calls import DreamCalls
from graphmind.prompts.dream import EXTRACT_PATTERN, ExperienceItem, ExtractedPattern, PatternExtractionInput
from graphmind.store import GraphStore


def stale_patterns(
    store: GraphStore, mind: str, patterns: Sequence[PatternState], calls: DreamCalls
) -> list[PatternState]:
    """The active stale ``patterns``, each extracted again from its valid experiences (by
    ``calls``' LLM, the offline rules when it fails); the patterns so refreshed (a stale one
    with none left is not)."""
    stale = [p for p in patterns if p.active and p.stale]
    if not stale:
        return []
    rows = store.read(
        "dream/list_valid_examples", mind=mind, patterns=[p.id for p in stale], per_pattern=SHOWN["centroid"]
    )
    examples = examples_by_pattern(rows)
    ready = [p for p in stale if examples.get(p.id)]
    inputs = [extraction_input(examples[p.id], calls.params.domain) for p in ready]
    outputs = calls.all("compress", EXTRACT_PATTERN, inputs, offline.extract_pattern)
    for p, out in zip(ready, outputs, strict=True):
        refreshed(p, out, [e.id for e in examples[p.id]], calls.params.max_examples)
    return ready


def examples_by_pattern(rows: Iterable[Mapping[str, Any]]) -> dict[str, list[ExperienceItem]]:
    """The stored rows as the extraction shows them, by pattern, with their texts without the
    particular names found across them (``entities.action_texts``, as a new cluster gets)."""
    by_pattern: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for row in rows:
        by_pattern[row["pattern"]].append(row)
    out: dict[str, list[ExperienceItem]] = {}
    for pattern, found in by_pattern.items():
        actions = action_texts([r["description"] for r in found])
        out[pattern] = [
            ExperienceItem(
                id=r["id"],
                description=r["description"],
                action=action,
                outcome=r["outcome"],
                kind=r["kind"],
                strategy_used=r["strategy_used"],
                confidence=r["confidence"],
            )
            for r, action in zip(found, actions, strict=True)
        ]
    return out


def extraction_input(examples: list[ExperienceItem], domain: str) -> PatternExtractionInput:
    return PatternExtractionInput(experiences=examples, domain=domain or "recorded")


def refreshed(p: PatternState, out: ExtractedPattern, valid_ids: list[str], max_examples: int) -> None:
    """``p`` with the text of ``out`` and examples among ``valid_ids`` only (the LLM's first);
    its statistics and members are unchanged."""
    chosen = [e for e in out.example_ids if e in set(valid_ids)]
    p.name, p.pattern_type = out.name, out.pattern_type
    p.conditions, p.actions = list(out.conditions), list(out.actions)
    p.description = describe(out)
    p.examples = list(dict.fromkeys([*chosen, *valid_ids]))[:max_examples]
    p.stale, p.changed = False, True


class Renamed:
    """The ladder nodes to name again although their members are unchanged: those above a
    refreshed pattern, level by level (a kept name would repeat the replaced fact)."""

    def __init__(self, refreshed_ids: Iterable[str]):
        self.ids = set(refreshed_ids)

    def keeps(self, node: LadderNode, old: Mapping[str, LadderNode]) -> bool:
        """Whether ``node`` keeps its stored name; one that does not is remembered, so the
        nodes above it are named again too."""
        if node.id in old and not self.ids & set(node.members):
            return True
        if self.ids & set(node.members):
            self.ids.add(node.id)
        return False
