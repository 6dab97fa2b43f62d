"""Offline ``recall.answer``: call the recall tools with the question, answer extractively.

Every tool whose input has a text field (``query``, ``question``, ``text``, ``q``) is called
once with the question; what the tools return (hits as dicts with ``id``/``text``, or models)
joins the memories given. The answer is the sentences sharing most terms with the question
(those naming its identifiers first; an experience's with the sentence after it, ``with_next``),
each followed by the id of its memory; with no such sentence it says nothing was found. An identifier of the question (a sample id, a ticket) that
no memory names is said first; when none of the question's identifiers is named, the answer is
``found`` False, as the memories only resemble what was asked. When some are named, only the
memories naming them answer (not their near twins), any sentence of them. Sentences of outdated
memories (a recall hit's ``outdated``) come after the valid ones' and say so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphmind.llm.base import Tool
from graphmind.prompts._models import MemoryItem
from graphmind.prompts.recall import RecallAnswer, RecallQuestion
from graphmind.prompts.tool_results import TEXT_FIELDS, call_with_text
from graphmind.recall.identifiers import absent, identifiers, named_first, names, telling
from graphmind.text import STOPWORDS, as_sentence, rank_by_overlap, sentences, term_set, trim, words

TEMPLATE_WORDS = frozenset("no memories found that answer result".split())
MEMBER_LIST = "Subsumes: "
"""How an offline abstraction's text lists its members (dream/offline.name_abstraction): the
names of what it holds, no answer to a question (a new user got "Subsumes: measuring, New C ring
order arrived, recapture, ageing and net round" for how many birds were ringed)."""


def answer(inputs: RecallQuestion, tools: Sequence[Tool]) -> RecallAnswer:
    memories, recalled = list(inputs.memories), []
    for tool in tools:
        if any(f in tool.input_type.model_fields for f in TEXT_FIELDS):
            recalled += call_with_text(tool, inputs.question) or []
    memories = _unique(memories + recalled)
    asked = identifiers(inputs.question)
    labelled = [f"{m.id}\n{m.text}" for m in memories]  # a memory's id names it too
    missing = absent(labelled, asked)
    named = [i for i in asked if i not in missing]
    # About named things (a batch, a ticket) when recall ranked memories by them (a hit's
    # "names"): the memories naming them answer, not their twins; else the identifiers are where
    # the question is (a tail number most memories name, which recall ranks after the topic).
    # Without a recall tool, the memories given are judged by their texts, as recall would.
    marked = {i for m in recalled for i in _names(m)}
    subjects = [i for i in named if i in marked] if recalled else telling(labelled, named)
    if subjects:
        memories = [m for m, text in zip(memories, labelled, strict=True) if any(names(text, i) for i in subjects)]
    extracted = _extract(inputs, memories, subjects)
    if not missing:
        return extracted
    note = f"No memory names {', '.join(missing)}."
    if not extracted.found:
        return RecallAnswer(answer=note, found=False)
    if named:  # the memories name the question's other identifiers
        return extracted.model_copy(update={"answer": f"{note} {extracted.answer}"})
    # every identifier asked about is missing: what was found only resembles the question
    return extracted.model_copy(
        update={"answer": f"{note} The nearest memories are about something else: {extracted.answer}", "found": False}
    )


def _extract(inputs: RecallQuestion, memories: list[MemoryItem], subjects: list[str]) -> RecallAnswer:
    """The sentences sharing most terms with the question (any sentence of a memory when the
    memories were chosen for naming its identifiers; a question with no word of four letters
    shares its shorter ones, ``short_terms``), valid memories' first, an outdated one marked,
    and the first sentence of a memory that replaced one of them (``replaces``) in its place."""
    outdated = {m.id: str(m.prop("outdated")) for m in memories if m.prop("outdated")}
    pool = [(s, m.id) for m in memories for s in sentences(m.text) if not s.startswith(MEMBER_LIST)]
    question = term_set(inputs.question)
    short = set() if question else short_terms(inputs.question)
    ranked = [
        pool[i]
        for i in rank_by_overlap([s for s, _ in pool], inputs.question)
        if subjects or term_set(pool[i][0]) & question or short & set(words(pool[i][0]))
    ]
    ranked = named_first(ranked, subjects, lambda item: item[0])  # as recall ranks
    successor = {str(m.prop("replaces")): m.id for m in memories if m.prop("replaces")}
    if successor:  # what replaced an answer comes in its place (its first sentence), whatever its words
        firsts = {mid: (s, mid) for s, mid in reversed(pool)}  # each memory's first sentence
        ranked = [y for x in ranked for y in ([firsts[successor[x[1]]]] if successor.get(x[1]) in firsts else []) + [x]]
    ranked = [x for x in ranked if x[1] not in outdated] + [x for x in ranked if x[1] in outdated]
    chosen = list(dict.fromkeys(ranked))[: inputs.max_sentences]
    if not chosen:
        return RecallAnswer(answer=f"No memories found that answer: {inputs.question}", found=False)
    taken = {s for s, _ in chosen}
    # a log line's sentences, each once (not a node's composed text)
    told = {m.id: list(dict.fromkeys(sentences(m.text))) for m in memories if m.label == "Experience"}
    text = " ".join(
        f"{as_sentence(trim(with_next(s, told[mid], taken), 300) if mid in told else trim(s, 220))} [{mid}]"
        + (f" (outdated: {outdated[mid]})" if mid in outdated else "")
        for s, mid in chosen
    )
    return RecallAnswer(answer=text, cited_ids=list(dict.fromkeys(mid for _, mid in chosen)), found=True)


def with_next(sentence: str, own: list[str], taken: set[str]) -> str:
    """``sentence`` and the one after it among ``own`` (its experience's sentences, each once),
    when there are at most three and that one is not in the answer already: a log line tells what
    happened, then what was done ("The staircase truck creaked. Tom tightened the bolts.")."""
    at = own.index(sentence) if sentence in own else -1
    if len(own) > 3 or at < 0 or at + 1 >= len(own) or own[at + 1] in taken:
        return sentence
    return f"{as_sentence(sentence)} {own[at + 1]}"


_CAPITAL_INSIDE = re.compile(r"(?<=[^\W_])[\s,;:]+([A-Z][^\W\d_]*)")


def short_terms(question: str) -> set[str]:
    """The words of three letters or more of a question that has no content term ("where did we
    buy the cyc dye?": buy, cyc, dye), but for stopwords and capitalised words inside it, which
    name what it is about ("How old is Rex?": old), not what the answer must say."""
    named = {m.group(1).lower() for m in _CAPITAL_INSIDE.finditer(question)}
    return {w for w in words(question) if len(w) >= 3 and w not in STOPWORDS and w not in named}


def _unique(memories: list[MemoryItem]) -> list[MemoryItem]:
    return list({m.id: m for m in reversed(memories)}.values())[::-1]


def _names(memory: MemoryItem) -> list[str]:
    """The question's identifiers recall ranked ``memory`` by (its hit's ``names``)."""
    found = memory.prop("names")
    return [str(x) for x in found] if isinstance(found, list) else []


BEHAVIOURS = {"recall.answer": answer}
