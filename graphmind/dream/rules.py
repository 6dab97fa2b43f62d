"""Term rules over patterns: how two patterns relate, whether they contradict, whether a
higher item covers a lower one. Used by the pipeline directly and by the offline LLM.

- connection kind: prerequisite when one's actions meet the other's conditions; alternative
  when the conditions agree and the actions differ; refinement when one adds conditions to
  the other's; complement otherwise;
- contradiction: the same conditions (Jaccard ≥ 0.5 of their terms) with conflicting actions
  (one negates what the other does: "not", "never", "avoid", ... on a shared term);
- coverage: the lower item shares a content term with the higher one (an item with no
  content term, such as "are you ai", cannot be judged by terms and counts as covered).
"""

from __future__ import annotations

import re

from graphmind.prompts.dream import ConnectionKind, PatternItem
from graphmind.text import jaccard, join_names, term_set

_NEGATION = re.compile(r"\b(?:not|never|avoid|don't|do not|stop|without|no)\b", re.I)


def terms(values: list[str]) -> set[str]:
    return set().union(*(term_set(v) for v in values)) if values else set()


def all_terms(p: PatternItem) -> set[str]:
    return term_set(p.description) | terms(p.conditions) | terms(p.actions)


def classify(a: PatternItem, b: PatternItem) -> tuple[ConnectionKind, PatternItem, PatternItem, str]:
    """(kind, from, to, because) of the connection between ``a`` and ``b``."""
    for first, second in ((a, b), (b, a)):
        met = terms(first.actions) & terms(second.conditions)
        if met:
            return (
                "prerequisite",
                first,
                second,
                f"Actions of {first.id} meet conditions of {second.id}: {join_names(sorted(met))}.",
            )
    cond_a, cond_b = terms(a.conditions), terms(b.conditions)
    same_conditions = bool(cond_a and cond_b) and jaccard(cond_a, cond_b) >= 0.3
    if same_conditions and jaccard(terms(a.actions), terms(b.actions)) < 0.3:
        return "alternative", a, b, f"{a.id} and {b.id} share conditions; their actions differ."
    for general, specific in ((a, b), (b, a)):
        g, s = terms(general.conditions), terms(specific.conditions)
        if g and g < s:
            return (
                "refinement",
                general,
                specific,
                f"{specific.id} adds conditions to {general.id}: {join_names(sorted(s - g))}.",
            )
    return "complement", a, b, f"{a.id} and {b.id} complement."


def contradiction(a: PatternItem, b: PatternItem) -> list[str] | None:
    """The shared condition terms when ``a`` and ``b`` contradict, else None."""
    shared = sorted(terms(a.conditions) & terms(b.conditions))
    same = bool(shared) and jaccard(terms(a.conditions), terms(b.conditions)) >= 0.5
    return shared if same and conflicting(a.actions, b.actions) else None


def conflicting(first: list[str], second: list[str]) -> bool:
    for x in first:
        for y in second:
            negated = bool(_NEGATION.search(x)) != bool(_NEGATION.search(y))
            if negated and term_set(x) & term_set(y):
                return True
    return False


def uncovered(higher: PatternItem, lower: list[PatternItem]) -> list[str]:
    """Ids of the lower items that share no content term with ``higher``."""
    scope = all_terms(higher)
    return [p.id for p in lower if (terms := all_terms(p)) and not (terms & scope)]
