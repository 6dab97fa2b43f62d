"""Term rules over patterns: how two patterns relate, whether they contradict, whether a
higher item covers a lower one. Used by the pipeline directly and by the offline LLM.

- connection kind: prerequisite when one's actions meet the other's conditions (a unit such as
  "arcsec" in "1.5 arcsec" is no such meeting, ``text.unit_words``); alternative
  when the conditions agree and the actions differ; refinement when one adds conditions to
  the other's; complement otherwise;
- contradiction: the same conditions (Jaccard ≥ 0.5 of their stemmed terms) with conflicting
  actions: one negates what the other does ("not", "never", "avoid", ... on a shared term), or
  does the opposite to the same thing ("raise the saddle" / "lower the saddle",
  ``graphmind.dream.antonyms``; an action of opposite words alone, "turn it on" / "turn it
  off", needs no shared object). On tests/data/contradictions (bench/contradiction_quality.py)
  the opposites and the stems lift recall from 0.21 to 0.59 at precision 1.0, and from 0.00
  to 0.50 on pairs written after the lexicon;
- coverage: the lower item shares a content term with the higher one (an item with no
  content term, such as "are you ai", cannot be judged by terms and counts as covered).
"""

from __future__ import annotations

import re

from graphmind.dream import antonyms
from graphmind.prompts.dream import ConnectionKind, PatternItem
from graphmind.text import jaccard, join_names, stem, term_set, unit_words, words

_NEGATION = re.compile(r"\b(?:not|never|avoid|don't|do not|stop|without|no)\b", re.I)


def terms(values: list[str]) -> set[str]:
    return set().union(*(term_set(v) for v in values)) if values else set()


def all_terms(p: PatternItem) -> set[str]:
    return term_set(p.description) | terms(p.conditions) | terms(p.actions)


def classify(a: PatternItem, b: PatternItem) -> tuple[ConnectionKind, PatternItem, PatternItem, str]:
    """(kind, from, to, because) of the connection between ``a`` and ``b``."""
    units = unit_words(_texts(a) + _texts(b))
    for first, second in ((a, b), (b, a)):
        met = terms(first.actions) & terms(second.conditions) - units
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


def _texts(p: PatternItem) -> list[str]:
    return [p.description, *p.conditions, *p.actions]


def contradiction(a: PatternItem, b: PatternItem) -> list[str] | None:
    """The shared condition terms when ``a`` and ``b`` contradict, else None."""
    mine, theirs = _stems(a.conditions), _stems(b.conditions)
    if not mine & theirs or jaccard(mine, theirs) < 0.5 or not conflicting(a.actions, b.actions):
        return None
    return sorted(terms(a.conditions) & terms(b.conditions)) or sorted(mine & theirs)


def conflicting(first: list[str], second: list[str]) -> bool:
    for x in first:
        for y in second:
            negated = bool(_NEGATION.search(x)) != bool(_NEGATION.search(y))
            if (negated and term_set(x) & term_set(y)) or opposed(x, y):
                return True
    return False


def opposed(x: str, y: str) -> bool:
    """``x`` and ``y`` do opposite things (a word of one has its opposite in the other, and
    neither holds both) to the same object (another content term they share), or one of them
    says nothing but its opposite word ("stop" / "start the migration"). A particle ("on",
    "up") counts only after the same word in both ("turn the fan on" / "turn the fan off",
    not "back up" / "shut down")."""
    table = antonyms.opposites()
    tx, ty = [stem(w) for w in words(x)], [stem(w) for w in words(y)]
    wx, wy = set(tx), set(ty)
    for w in wx - wy:
        for v in table.get(w, frozenset()) & (wy - wx):
            if w in antonyms.PARTICLES and not _before(tx, w) & _before(ty, v):
                continue
            rest_x = {stem(t) for t in term_set(x)} - {w, v}
            rest_y = {stem(t) for t in term_set(y)} - {w, v}
            if rest_x & rest_y or not (rest_x and rest_y):
                return True
    return False


def _before(tokens: list[str], word: str) -> set[str]:
    return {tokens[i - 1] for i, t in enumerate(tokens) if t == word and i}


def _stems(values: list[str]) -> set[str]:
    return {stem(t) for t in terms(values)}


def uncovered(higher: PatternItem, lower: list[PatternItem]) -> list[str]:
    """Ids of the lower items that share no content term with ``higher``."""
    scope = all_terms(higher)
    return [p.id for p in lower if (terms := all_terms(p)) and not (terms & scope)]
