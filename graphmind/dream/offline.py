"""Offline dreaming: patterns, ladder names, connections and checks from the items given.

- extract_pattern: the name is the longest phrase every experience shares (else the shared
  strategy, else the most shared terms); conditions are the experiences' "when/if/..."
  clauses; actions their strategies and main clauses; success rate = mean outcome
  (success 1, progress 0.5, failure 0), none for a cluster of errors.
- group_level: the proposed grouping, unchanged (the offline LLM has no knowledge beyond the
  items' words, which the embeddings' grouping already weighed).
- connect: prerequisite when one's actions meet the other's conditions; alternative when the
  conditions agree and the actions differ; refinement when one adds conditions to the
  other's; complement otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from graphmind.dream import rules
from graphmind.dream.deeds import state_then_deed
from graphmind.dream.entities import action_text, action_texts
from graphmind.dream.naming import GENERIC, stop_words
from graphmind.llm.base import Tool
from graphmind.prompts.dream import (
    AbstractionInput,
    AbstractionOutput,
    ConnectionInput,
    ConnectionOutput,
    ContradictionInput,
    ContradictionOutput,
    ExperienceItem,
    ExtractedPattern,
    GroupingInput,
    GroupingOutput,
    ItemGroup,
    PatternExtractionInput,
    PatternItem,
    PatternType,
    SubsumptionInput,
    SubsumptionOutput,
)
from graphmind.text import (
    as_sentence,
    best_sentences,
    first_sentence,
    jaccard,
    join_names,
    shared_phrase,
    term_set,
    top_terms,
    trim,
)

TEMPLATE_WORDS = frozenset(
    """
prerequisite alternative refinement complement strategy technique heuristic actions meet
conditions share differ adds shared terms subsumes patterns pattern level subsume
vertical consistency verified contradict contradictions found items item
""".split()
)

_CONDITION = re.compile(
    r"\b(?:when|whenever|if|while|once|after|unless)\b(?:[^.,;:!?]|(?<=\d)[.,](?=\d))*", re.I
)  # a decimal point or thousands separator ("2.1", "1,000") does not end it
_OUTCOME_SCORE = {"success": 1.0, "progress": 0.5, "failure": 0.0}
_DANGLING = re.compile(
    r"\s+(?:(?:of|at|for|to|from|with|by|aboard|onto|into)(?:\s+(?:the|a|an))?(?=\s*[,;:.!?])"
    r"|(?:on|in|of|at|for|to|from|with|by|aboard|onto|into)(?:\s+(?:the|a|an))?(?=\s+(?:had|has|have|was|were|is|are)\b))",
    re.I,
)
"""A preposition left without its object where a particular name was cut ("the shroud on had a
broken strand", "the impeller for; two vanes"): names drop it. A particle that ends a phrasal
verb stays ("logged in and restarted", "turned the pump on, then")."""
_PARENS = re.compile(r"\s*\([^)]*\)")
_SEPARATOR = re.compile(r"[,;]\s+")
_SEMICOLON = re.compile(r";\s+")
_LOOSE_MARK = re.compile(r"\s+([,;:])")


def extract_pattern(inputs: PatternExtractionInput, tools: Sequence[Tool]) -> ExtractedPattern:
    exps = inputs.experiences
    # what was done, without the batch's particular names (a pattern generalises its members)
    descriptions = [e.action or e.description for e in exps]
    failed = [e.outcome == "failure" for e in exps]
    name = _pattern_name(descriptions, [e.strategy_used for e in exps if e.strategy_used], failed)
    split = [_clauses(d, e.description) for d, e in zip(descriptions, exps, strict=True)]
    # When to apply it comes from where it did not fail (a failure's circumstances are not a
    # condition of the pattern's action), unless it never worked: then they say where it fails.
    worked = [k for k, e in enumerate(exps) if e.outcome != "failure"] or list(range(len(exps)))
    stated = {k: [c for c in _stated_conditions(descriptions[k]) if len(c.split()) >= 3] for k in worked}
    conditions = _unique([*(c for k in worked for c in stated[k]), *(c for c in (split[k][0] for k in worked) if c)])
    actions = _unique(
        [
            *(a for (_, a), e in zip(split, exps) if a and e.outcome != "failure"),
            *(_main_clause(d) for d, e in zip(descriptions, exps) if e.outcome == "success"),
        ]
    )
    lead = _lead_pair(name, descriptions, split, stated, exps)
    if lead:  # "IF condition → THEN action" reads as one case when both come from one member
        conditions, actions = _unique([lead[0], *conditions]), _unique([lead[1], *actions])
    all_errors = all(e.kind == "error" for e in exps)
    rate = None if all_errors else round(sum(_OUTCOME_SCORE[e.outcome] for e in exps) / len(exps), 4)
    name_terms = term_set(name)
    ranked = sorted(exps, key=lambda e: (e.outcome != "success", -len(term_set(e.description) & name_terms)))
    return ExtractedPattern(
        name=name,
        pattern_type=_pattern_type([e.kind for e in exps]),
        conditions=conditions[:3],
        actions=actions[:3],
        success_rate=rate,
        example_ids=[e.id for e in ranked[:3]],
    )


def _clauses(description: str, written: str | None = None) -> tuple[str | None, str | None]:
    """(condition, action) of a "context: state, action" description: the context before an
    early colon and any parentheses are dropped; the first clause of 3+ words (cut at "," or
    ";" when the text as ``written`` has such a context, else at ";" alone: in free text a
    comma more often joins a list, "the oldest, darkest stems") is the state, the rest the
    action. (None, None) when it does not split."""
    text = _PARENS.sub("", _opening(description))
    head, colon, tail = text.partition(": ")
    if colon and len(head) <= 40:
        text = tail
    context = _context(written or description)
    parts = [p.strip() for p in (_SEPARATOR if context else _SEMICOLON).split(text) if p.strip()]
    for k, part in enumerate(parts[:-1]):
        if len(part.split()) >= 3:
            return part, ", ".join(parts[k + 1 :])
    told = state_then_deed(description)  # "Boiler locking out. Cleaned the sensor, fine."
    if told and len(told[0].split()) >= 3:
        return _PARENS.sub("", told[0]).rstrip(".!?…"), _main_clause(told[1])
    return None, None


def _context(text: str) -> bool:
    """Whether ``text`` opens with a short context before a colon ("Puzzle 3, R5C6: ...")."""
    head, colon, _ = _opening(text).partition(": ")
    return bool(colon) and len(head) <= 40


def _stated_conditions(description: str) -> list[str]:
    """The "when/if/after ..." clauses of a description, as written."""
    return [m.group(0).strip(" ,") for m in _CONDITION.finditer(description)]


def _lead_pair(
    name: str,
    descriptions: list[str],
    split: list[tuple[str | None, str | None]],
    stated: dict[int, list[str]],
    exps: Sequence[ExperienceItem],
) -> tuple[str, str] | None:
    """(condition, action) of one member that worked, said by that member: the first, among
    successes before the others and then by terms shared with the name, whose stated condition
    (in its first sentence) leaves a main clause of 3+ words (of the sentence that says what
    was done, ``_main_clause``), or whose text splits into state and action."""
    name_terms = term_set(name)
    worked = [k for k in stated if exps[k].outcome != "failure"]  # a failure's action is no THEN
    order = sorted(
        worked, key=lambda k: (exps[k].outcome != "success", -len(term_set(descriptions[k]) & name_terms), k)
    )
    for k in order:
        main = _main_clause(descriptions[k])
        said = [c for c in stated[k] if c in _opening(descriptions[k])]  # of the same sentence
        if said and len(main.split()) >= 3:
            return said[0], main
        condition, action = split[k]
        if condition and action:
            return condition, action
    return None


def _pattern_name(descriptions: list[str], strategies: list[str], failed: list[bool]) -> str:
    if strategies:
        top = max(dict.fromkeys(strategies), key=strategies.count)
        if strategies.count(top) * 2 > len(descriptions):
            return top
    phrase = shared_phrase(descriptions) if len(descriptions) > 1 else None
    if phrase and len(phrase.split()) >= 2:  # every member says it; one word alone ("warm") is a topic
        return phrase
    return exemplar_name(descriptions, failed=failed)


def exemplar_name(descriptions: list[str], max_chars: int = 60, failed: list[bool] | None = None) -> str:
    """The main clause of the member that shares most terms with the others (the lexical
    medoid; among the members sharing at least half as many, the one whose opening loses the
    fewest words to the cut, as a cut leaves seams: "the replacement teapot from arrived"; one
    that did not fail where any did not, ``failed``: a technique is not named by a try that
    failed, "came straight back onto the rocks - not ready"), without
    particular names, cut at a word: words as a member wrote them, which read
    as what was done ("dry hopped at 18C, gravity crept up"), where its most shared terms side
    by side would not ("gave water hops")."""
    actions = action_texts(descriptions)  # what fills a name's slot in the others is a name too
    terms = [term_set(d) for d in actions]
    shared = [sum(len(t & other) for j, other in enumerate(terms) if j != i) for i, t in enumerate(terms)]
    cut = [len(_opening(_acted(d)).split()) - len(_opening(_acted(a)).split()) for d, a in zip(descriptions, actions)]
    held = [i for i in range(len(actions)) if not (failed and failed[i])] or list(range(len(actions)))
    typical = [i for i in held if 2 * shared[i] >= max(shared[j] for j in held)]  # at least half the most shared
    medoid = actions[min(typical, key=lambda i: (cut[i], -shared[i], len(actions[i])))]
    clause = _DANGLING.sub("", _main_clause(medoid) or _opening(medoid) or medoid)  # "the shroud on had"
    words = clause.split()
    while len(words) > 1 and words[-1].casefold().strip(",;:") in stop_words():
        words.pop()  # "restarted on" where "on node-3" was a name
    return trim(" ".join(words).rstrip(",;:"), max_chars)


def _pattern_type(kinds: list[str]) -> PatternType:
    top = max(dict.fromkeys(kinds), key=kinds.count)
    types: dict[str, PatternType] = {"strategy": "strategy", "insight": "heuristic"}
    return types.get(top, "technique")


def _main_clause(description: str) -> str:
    """The first sentence that tells what was done (``_acted``), without its "when/if ..." clauses."""
    rest = _CONDITION.sub("", _opening(_acted(description))).strip(" ,;")
    return trim(_LOOSE_MARK.sub(r"\1", rest), 120)  # "was corrupted , so" where a clause went


def _acted(description: str) -> str:
    """The sentence of ``description`` that says what was done: its opening, unless that only
    states the situation a later sentence acts on (``deeds.state_then_deed``)."""
    told = state_then_deed(description)
    return told[1] if told else description


def _opening(description: str) -> str:
    """The first sentence of ``description`` without its full stop ("2.1%", "e.g." stay whole)."""
    return first_sentence(description).rstrip(".!?…")


def _unique(values: Iterable[str]) -> list[str]:
    seen: dict[str, str] = {}
    for value in values:
        if value and value.lower() not in seen:
            seen[value.lower()] = value
    return list(seen.values())


def name_abstraction(inputs: AbstractionInput, tools: Sequence[Tool]) -> AbstractionOutput:
    """The name is the first key phrase the engine found (c-TF-IDF, general to the members)
    that is within no member's own name, else one within the own names of two members or more
    (what they share: "Flight" over "flight" and "flight flights april"), else the longest
    phrase the members share, else their most shared term outside their own names and the
    stopwords; the generalization is the members' sentence that best holds the key phrases,
    then what it subsumes, particular names (services, customers, people) left out."""
    texts = [m.description for m in inputs.members]
    full = [" ".join([m.description, *m.conditions, *m.actions]) for m in inputs.members]
    # Name what the members share, not one of them: a phrase within one member's own name
    # would only reword it.
    own = [term_set(t.split(":")[0]) for t in texts]
    fresh = [k for k in inputs.key_phrases if not any(term_set(k) <= o for o in own)]
    shared = [k for k in inputs.key_phrases if sum(term_set(k) <= o for o in own) >= 2]
    name: str | None = next(iter(fresh or shared), None)
    if not name:  # from the texts without their names: a category names no service or person
        unnamed = [action_text(t) for t in texts]
        phrase = shared_phrase(unnamed) if len(texts) > 1 else None
        skip = set().union(*own) | stop_words() | GENERIC | {"subsumes"}  # our template word; terms are lower-case
        plain = [action_text(t) for t in full]
        terms = top_terms(plain, k=1, exclude=skip) or top_terms(plain, k=1, exclude=GENERIC)
        name = (phrase if phrase and len(term_set(phrase)) >= 2 else None) or (
            terms[0].capitalize() if terms else trim(unnamed[0], 60)
        )
    name = action_text(name) or name
    # The anchor is a clause a member's case said (its condition and action, as written), not
    # a composed description ("Name: condition → action") cut short.
    said = [" ".join(_lead(m)) for m in inputs.members]
    anchor = best_sentences([s for s in said if s] or texts, " ".join([name, *inputs.key_phrases]), k=1)
    members = join_names([trim(action_text(_own_name(m)), 60) for m in inputs.members])
    generalization = f"Subsumes: {members}."
    if anchor:
        generalization = f"{as_sentence(trim(action_text(anchor[0]), 160))} {generalization}"
    return AbstractionOutput(name=name, generalization=generalization, member_ids=[m.id for m in inputs.members])


def _own_name(member: PatternItem) -> str:
    """A member's name: given, else its description up to "Name: " (else all of it)."""
    if member.name:
        return member.name
    head, colon, _ = member.description.partition(": ")
    return head if colon else member.description


def _lead(member: PatternItem) -> list[str]:
    """A member's first condition and action as one sentence's parts ("when X, do Y"), else
    its description after its name."""
    if member.conditions and member.actions:
        return [f"{member.conditions[0].rstrip(' ,.;:')},", member.actions[0]]
    rest = member.description.removeprefix(_own_name(member)).lstrip(": ")
    rest = rest.split("Subsumes: ")[0].strip()  # an abstraction: what it says, not its list
    return [rest] if rest else []


def group_level(inputs: GroupingInput, tools: Sequence[Tool]) -> GroupingOutput:
    """The proposal as it is: the offline LLM knows nothing of the items beyond their words,
    which the embeddings' grouping already weighed."""
    return GroupingOutput(groups=[ItemGroup(member_ids=list(ids)) for ids in inputs.proposal])


def connect(inputs: ConnectionInput, tools: Sequence[Tool]) -> ConnectionOutput:
    a, b = inputs.a, inputs.b
    kind, src, dst, because = rules.classify(a, b)
    strength = (
        inputs.similarity
        if inputs.similarity is not None
        else round(jaccard(rules.all_terms(a), rules.all_terms(b)), 4)
    )
    evidence = [i for i in a.example_ids if i in b.example_ids]
    shared = sorted(rules.all_terms(a) & rules.all_terms(b))
    rationale = because + (f" Shared terms: {join_names(shared[:5])}." if shared else "")
    return ConnectionOutput(
        from_id=src.id, to_id=dst.id, kind=kind, strength=strength, evidence=evidence, rationale=rationale
    )


def subsumes(inputs: SubsumptionInput, tools: Sequence[Tool]) -> SubsumptionOutput:
    higher = inputs.higher
    missing = rules.uncovered(higher, inputs.lower)
    if missing:
        message = f'Level {inputs.level} pattern "{higher.description}" doesn\'t subsume Level {inputs.level - 1}'
        return SubsumptionOutput(subsumes=False, uncovered_ids=missing, message=message)
    return SubsumptionOutput(subsumes=True, message="Vertical consistency verified")


def contradicts(inputs: ContradictionInput, tools: Sequence[Tool]) -> ContradictionOutput:
    a, b = inputs.a, inputs.b
    shared = rules.contradiction(a, b)
    if shared is not None:
        return ContradictionOutput(
            contradicts=True,
            shared_conditions=shared,
            message=f'Patterns "{a.description}" and "{b.description}" contradict',
        )
    return ContradictionOutput(
        contradicts=False,
        shared_conditions=sorted(rules.terms(a.conditions) & rules.terms(b.conditions)),
        message="No contradictions found",
    )


BEHAVIOURS = {
    "dream.extract_pattern": extract_pattern,
    "dream.name_abstraction": name_abstraction,
    "dream.group_level": group_level,
    "dream.connect": connect,
    "dream.subsumes": subsumes,
    "dream.contradicts": contradicts,
}
