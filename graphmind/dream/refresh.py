"""Stale patterns extracted again: a pattern some or all of whose experiences a newer memory
superseded or contradicted (``stale_since`` set in that capture's transaction: now, or when a
later ``invalid_at`` comes; forgetting the newer memory sets it too) may state the replaced fact
in its name, conditions and actions, and the abstractions above it in their generalisations.
The first dream after that extracts it again from the experiences that hold, stored or given by
this run (the same ``dream.extract_pattern`` call a new cluster gets, the latest ``SHOWN``), so
its text says only what holds (its name stays when the stored experiences that hold still say
every word of it: ``still_held``); it then counts as changed, the ladder nodes above it are named
again (``Renamed``), and the publication moves ``stale_since`` to the next experience's later
``invalid_at``, or removes it, unless a capture set it after the run began. A stale pattern with
no experience that holds stays as it is (invalidated).

read (the valid experiences of the stale patterns) → the extraction inputs (pure) → the LLM →
the patterns' text replaced (pure).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict
from typing import Any

from graphmind.dream import offline
from graphmind.dream.compress import SHOWN
from graphmind.dream.entities import action_texts
from graphmind.dream.items import ExperienceRow, LadderNode, PatternState
from graphmind.dream.llm_calls import DreamCalls
from graphmind.dream.naming import describe
from graphmind.prompts.dream import EXTRACT_PATTERN, ExperienceItem, ExtractedPattern, PatternExtractionInput
from graphmind.store import GraphStore
from graphmind.text import stems

OUTCOMES = frozenset({"success", "failure", "progress"})
KINDS = frozenset({"move", "strategy", "insight", "error"})


def stale_patterns(
    store: GraphStore, mind: str, patterns: Sequence[PatternState], rows: Sequence[ExperienceRow], calls: DreamCalls
) -> list[PatternState]:
    """The active stale ``patterns``, each extracted again from its experiences that hold: the
    stored ones and those this run gives it (``rows``, not yet linked), by ``calls``' LLM (the
    offline rules when it fails); the patterns so refreshed (one with none is not). A pattern a
    memory replaced itself is left as it is: no telling of its technique makes it hold again."""
    stale = [p for p in patterns if p.active and p.stale and not p.superseded_itself]
    if not stale:
        return []
    found = store.read(
        "dream/list_valid_examples", mind=mind, patterns=[p.id for p in stale], per_pattern=SHOWN["centroid"]
    )
    held = still_held(found)
    fresh = {r.id: r for r in rows if not r.invalid}
    for p in stale:
        found += [{"pattern": p.id, **asdict(fresh[i])} for i in p.new_members if i in fresh]
    examples = examples_by_pattern(found)
    ready = [p for p in stale if examples.get(p.id)]
    inputs = [extraction_input(examples[p.id][-SHOWN["centroid"] :], calls.params.domain) for p in ready]
    outputs = calls.all("compress", EXTRACT_PATTERN, inputs, offline.extract_pattern)
    for p, out in zip(ready, outputs, strict=True):
        if p.name and stems(p.name) <= held.get(p.id, set()):  # what holds still says all of it
            out = out.model_copy(update={"name": p.name})
        refreshed(p, out, [e.id for e in examples[p.id]], calls.params.max_examples)
    return ready


def still_held(stored: Iterable[Mapping[str, Any]]) -> dict[str, set[str]]:
    """The stemmed content terms of each pattern's stored experiences that hold: a pattern whose name
    they all still say keeps it when it is told again (a correction joining a technique does
    not rename it); a name a superseded experience alone said goes."""
    terms: dict[str, set[str]] = defaultdict(set)
    for row in stored:
        terms[row["pattern"]] |= stems(row.get("description") or "")
    return terms


def examples_by_pattern(rows: Iterable[Mapping[str, Any]]) -> dict[str, list[ExperienceItem]]:
    """The rows (stored, or this run's) as the extraction shows them, by pattern, in order, with
    their texts without the particular names found across them (``entities.action_texts``, as a
    new cluster gets); a row the extraction cannot show (no text, an unknown outcome) is left out."""
    by_pattern: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for row in rows:
        if (row.get("description") or "").strip() and row.get("outcome") in OUTCOMES:
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
                kind=r.get("kind") if r.get("kind") in KINDS else "move",
                strategy_used=r.get("strategy_used"),
                confidence=r.get("confidence"),
            )
            for r, action in zip(found, actions, strict=True)
        ]
    return out


def extraction_input(examples: list[ExperienceItem], domain: str) -> PatternExtractionInput:
    return PatternExtractionInput(experiences=examples, domain=domain or "recorded")


def refreshed(p: PatternState, out: ExtractedPattern, valid_ids: list[str], max_examples: int) -> None:
    """``p`` with the text of ``out`` and examples among ``valid_ids`` (oldest first) only: the
    LLM's, then the latest; its statistics and members are unchanged."""
    chosen = [e for e in out.example_ids if e in set(valid_ids)]
    p.name, p.pattern_type = out.name, out.pattern_type
    p.conditions, p.actions = list(out.conditions), list(out.actions)
    p.description = describe(out)
    p.examples = list(dict.fromkeys([*chosen, *reversed(valid_ids)]))[:max_examples]  # then the latest
    p.stale, p.refreshed, p.changed = False, True, True


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
