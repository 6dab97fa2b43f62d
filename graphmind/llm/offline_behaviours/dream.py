"""Offline dreaming: patterns, ladder names, connections and checks from the items given.

- extract_pattern: the name is the longest phrase every experience shares (else the shared
  strategy, else the most shared terms); conditions are the experiences' "when/if/..."
  clauses; actions their strategies and main clauses; success rate = mean outcome
  (success 1, progress 0.5, failure 0), none for a cluster of errors.
- connect: prerequisite when one's actions meet the other's conditions; alternative when the
  conditions agree and the actions differ; refinement when one adds conditions to the
  other's; complement otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphmind.llm.base import Tool
from graphmind.text import (
    as_sentence, best_sentences, jaccard, join_names, shared_phrase, shared_terms, term_set, top_terms, trim,
)
from graphmind.prompts.dream import (
    AbstractionInput, AbstractionOutput, ConnectionInput, ConnectionKind, ConnectionOutput,
    ContradictionInput, ContradictionOutput, ExtractedPattern, PatternExtractionInput, PatternItem,
    PatternType, SubsumptionInput, SubsumptionOutput,
)

TEMPLATE_WORDS = frozenset("""
prerequisite alternative refinement complement strategy technique heuristic actions meet
conditions share differ adds shared terms subsumes patterns pattern level subsume
vertical consistency verified contradict contradictions found items item
""".split())

_CONDITION = re.compile(r"\b(?:when|whenever|if|while|once|after|unless)\b[^.,;:!?]*", re.I)
_NEGATION = re.compile(r"\b(?:not|never|avoid|don't|do not|stop|without|no)\b", re.I)
_OUTCOME_SCORE = {"success": 1.0, "progress": 0.5, "failure": 0.0}


def extract_pattern(inputs: PatternExtractionInput, tools: Sequence[Tool]) -> ExtractedPattern:
    exps = inputs.experiences
    descriptions = [e.description for e in exps]
    name = _pattern_name(descriptions, [e.strategy_used for e in exps if e.strategy_used])
    conditions = _unique(m.group(0).strip(" ,") for d in descriptions for m in _CONDITION.finditer(d))
    actions = _unique([*(e.strategy_used for e in exps if e.strategy_used and e.outcome != "failure"),
                       *(_main_clause(e.description) for e in exps if e.outcome == "success")])
    all_errors = all(e.kind == "error" for e in exps)
    rate = None if all_errors else round(sum(_OUTCOME_SCORE[e.outcome] for e in exps) / len(exps), 4)
    name_terms = term_set(name)
    ranked = sorted(exps, key=lambda e: (e.outcome != "success", -len(term_set(e.description) & name_terms)))
    return ExtractedPattern(name=name, pattern_type=_pattern_type([e.kind for e in exps]),
                            conditions=conditions[:5], actions=actions[:5], success_rate=rate,
                            example_ids=[e.id for e in ranked[:3]])


def _pattern_name(descriptions: list[str], strategies: list[str]) -> str:
    if strategies:
        top = max(dict.fromkeys(strategies), key=strategies.count)
        if strategies.count(top) * 2 > len(descriptions):
            return top
    phrase = shared_phrase(descriptions) if len(descriptions) > 1 else None
    if phrase:
        return phrase
    terms = shared_terms(descriptions, min_share=2)[:3]
    return " ".join(terms) if terms else trim(descriptions[0], 60)


def _pattern_type(kinds: list[str]) -> PatternType:
    top = max(dict.fromkeys(kinds), key=kinds.count)
    return {"strategy": "strategy", "insight": "heuristic"}.get(top, "technique")


def _main_clause(description: str) -> str:
    rest = _CONDITION.sub("", description.split(".")[0]).strip(" ,;")
    return trim(rest, 120)


def _unique(values: Sequence[str] | object) -> list[str]:
    seen: dict[str, str] = {}
    for value in values:  # type: ignore[union-attr]
        if value and value.lower() not in seen:
            seen[value.lower()] = value
    return list(seen.values())


def name_abstraction(inputs: AbstractionInput, tools: Sequence[Tool]) -> AbstractionOutput:
    texts = [m.description for m in inputs.members]
    phrase = shared_phrase(texts) if len(texts) > 1 else None
    full = [" ".join([m.description, *m.conditions, *m.actions]) for m in inputs.members]
    terms = top_terms(full, k=2)
    if not phrase or len(term_set(phrase)) < 2:
        phrase = " & ".join(t.capitalize() for t in terms) if terms else trim(texts[0], 60)
    name = phrase
    conditions = [c for m in inputs.members for c in m.conditions]
    anchor = best_sentences([*texts, *conditions], " ".join(terms), k=1)
    members = join_names([trim(m.description, 60) for m in inputs.members])
    generalization = f"Subsumes: {members}."
    if anchor:
        generalization = f"{as_sentence(trim(anchor[0], 160))} {generalization}"
    return AbstractionOutput(name=name, generalization=generalization,
                             member_ids=[m.id for m in inputs.members])


def _terms(values: list[str]) -> set[str]:
    return set().union(*(term_set(v) for v in values)) if values else set()


def connect(inputs: ConnectionInput, tools: Sequence[Tool]) -> ConnectionOutput:
    a, b = inputs.a, inputs.b
    kind, src, dst, because = _classify(a, b)
    strength = inputs.similarity if inputs.similarity is not None else round(
        jaccard(_all_terms(a), _all_terms(b)), 4)
    evidence = [i for i in a.example_ids if i in b.example_ids]
    shared = sorted(_all_terms(a) & _all_terms(b))
    rationale = because + (f" Shared terms: {join_names(shared[:5])}." if shared else "")
    return ConnectionOutput(from_id=src.id, to_id=dst.id, kind=kind, strength=strength,
                            evidence=evidence, rationale=rationale)


def _all_terms(p: PatternItem) -> set[str]:
    return term_set(p.description) | _terms(p.conditions) | _terms(p.actions)


def _classify(a: PatternItem, b: PatternItem) -> tuple[ConnectionKind, PatternItem, PatternItem, str]:
    for first, second in ((a, b), (b, a)):
        met = _terms(first.actions) & _terms(second.conditions)
        if met:
            return ("prerequisite", first, second,
                    f"Actions of {first.id} meet conditions of {second.id}: {join_names(sorted(met))}.")
    cond_a, cond_b = _terms(a.conditions), _terms(b.conditions)
    same_conditions = bool(cond_a and cond_b) and jaccard(cond_a, cond_b) >= 0.3
    if same_conditions and jaccard(_terms(a.actions), _terms(b.actions)) < 0.3:
        return "alternative", a, b, f"{a.id} and {b.id} share conditions; their actions differ."
    for general, specific in ((a, b), (b, a)):
        g, s = _terms(general.conditions), _terms(specific.conditions)
        if g and g < s:
            return ("refinement", general, specific,
                    f"{specific.id} adds conditions to {general.id}: {join_names(sorted(s - g))}.")
    return "complement", a, b, f"{a.id} and {b.id} complement."


def subsumes(inputs: SubsumptionInput, tools: Sequence[Tool]) -> SubsumptionOutput:
    higher = inputs.higher
    scope = term_set(higher.description) | _terms(higher.conditions) | _terms(higher.actions)
    uncovered = [p.id for p in inputs.lower if not (_all_terms(p) & scope)]
    if uncovered:
        message = (f'Level {inputs.level} pattern "{higher.description}" doesn\'t subsume '
                   f"Level {inputs.level - 1}")
        return SubsumptionOutput(subsumes=False, uncovered_ids=uncovered, message=message)
    return SubsumptionOutput(subsumes=True, message="Vertical consistency verified")


def contradicts(inputs: ContradictionInput, tools: Sequence[Tool]) -> ContradictionOutput:
    a, b = inputs.a, inputs.b
    shared = sorted(_terms(a.conditions) & _terms(b.conditions))
    same = bool(shared) and jaccard(_terms(a.conditions), _terms(b.conditions)) >= 0.5
    if same and _conflicting(a.actions, b.actions):
        return ContradictionOutput(contradicts=True, shared_conditions=shared,
                                   message=f'Patterns "{a.description}" and "{b.description}" contradict')
    return ContradictionOutput(contradicts=False, shared_conditions=shared, message="No contradictions found")


def _conflicting(first: list[str], second: list[str]) -> bool:
    for x in first:
        for y in second:
            negated = bool(_NEGATION.search(x)) != bool(_NEGATION.search(y))
            if negated and term_set(x) & term_set(y):
                return True
    return False


BEHAVIOURS = {
    "dream.extract_pattern": extract_pattern,
    "dream.name_abstraction": name_abstraction,
    "dream.connect": connect,
    "dream.subsumes": subsumes,
    "dream.contradicts": contradicts,
}
