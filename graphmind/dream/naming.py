"""Key phrases that name a ladder level's nodes: class-based TF-IDF (c-TF-IDF, as in BERTopic)
over the nodes of one level, each node's document being its children's texts.

A phrase (1-3 words, scikit-learn's ``CountVectorizer``, English stopwords out in any case) scores
√(tf x coverage) x log(1 + mean words per node / frequency of the phrase over all nodes), with
tf = its count in the node / the node's words and coverage = the share of the node's children
that hold it: frequent in this node and shared by its members (what a category's members have
in common names it; one child's favourite word does not), rare in its siblings. Against tf
alone, on node titles the namer never saw (bench/naming_quality.py), coverage lifts the hits
on ICD-10's 22 chapters from 0.55 to 0.73 and leaves NAICS's levels as they were (0.38-0.82).
A phrase no single child holds (the seam of two texts joined, "server restarted" from "...the
web server" + "restarted the proxy") has no coverage and is never a name. A node's name is
taken only from phrases every word of which is general to it:

- no name of a particular thing (``entities.is_name``: payments-api, ProfileStore, Nicolas;
  nor a possessor of the level's texts, ``entities.action_texts``: "the toaster's lever");
- found in at least two of its children (``entities.general_terms``): a term only one child
  uses (a lower-case service, a customer) names that child, not the category;
- no unit or count, a word written after a number in most of its uses (``text.unit_words``:
  "cm" of "60 cm", "percent").

Multi-word phrases are preferred when they score at least ``PHRASE_SHARE`` of the best single
word (a phrase reads as a name; a word alone is a topic), so names are phrases from the
members, never templates or term pairs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from graphmind.dream.entities import action_texts, general_terms, is_name
from graphmind.prompts.dream import ExtractedPattern
from graphmind.text import STOPWORDS, content_terms, stem, top_terms, unit_words

PHRASE_SHARE = 0.5
_WORD = re.compile(r"(?u)\b[a-zA-Z][a-zA-Z'’-]+\b")


def level_key_phrases(children: Sequence[Sequence[str]], k: int = 3) -> list[list[str]]:
    """Up to ``k`` key phrases per node (best first); ``children[i]`` holds the texts of node
    i's children, one text per child. A node whose children share no usable word gets []."""
    flat = action_texts([t for texts in children for t in texts])
    actions, start = [], 0
    for texts in children:
        actions.append(flat[start : start + len(texts)])
        start += len(texts)
    docs = [" ".join(texts) for texts in actions]
    if not any(_WORD.search(d) for d in docs):
        return [[] for _ in docs]
    from sklearn.feature_extraction.text import CountVectorizer  # imported here: ~2 s at every CLI start

    vectorizer = CountVectorizer(
        ngram_range=(1, 3), stop_words=sorted(stop_words()), lowercase=False, token_pattern=_WORD.pattern
    )
    try:
        counts = vectorizer.fit_transform(docs).toarray().astype(float)
    except ValueError:  # only stopwords
        return [[] for _ in docs]
    phrases = vectorizer.get_feature_names_out()
    words = np.array([len(p.split()) for p in phrases])
    unigram_total = (counts * (words == 1)).sum(axis=1, keepdims=True)
    tf = counts / np.maximum(unigram_total, 1)
    idf = np.log(1 + unigram_total.mean() / np.maximum(counts.sum(axis=0), 1))
    scores = np.sqrt(tf * _coverage(vectorizer, actions)) * idf
    units = unit_words(flat)  # "60 cm", "85 percent": a setting, not a name
    out = []
    for i, texts in enumerate(actions):
        allowed = general_terms([_terms(t) for t in texts]) - units
        usable = [j for j in np.argsort(-scores[i], kind="stable") if scores[i, j] > 0 and _usable(phrases[j], allowed)]
        out.append(_ranked(usable, phrases, words, scores[i], k))
    return out


def _coverage(vectorizer: Any, actions: list[list[str]]) -> np.ndarray:
    """(nodes x phrases): the share of each node's children whose text holds the phrase."""
    held = vectorizer.transform([t for texts in actions for t in texts]) > 0
    out = np.zeros((len(actions), len(vectorizer.vocabulary_)))
    start = 0
    for i, texts in enumerate(actions):
        if texts:
            out[i] = np.asarray(held[start : start + len(texts)].sum(axis=0)).ravel() / len(texts)
        start += len(texts)
    return out


@cache
def stop_words() -> frozenset[str]:
    """scikit-learn's English stopwords and ours, lower-case and capitalised: the vectorizer
    keeps case (acronyms stay capitals), so "After" opening a sentence would pass as a term."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    words = set(ENGLISH_STOP_WORDS) | STOPWORDS | _CONTRACTIONS
    words |= {w.replace("'", "’") for w in words}
    return frozenset(words | {w.capitalize() for w in words})


_CONTRACTIONS = frozenset(
    [f"{verb}n't" for verb in "do does did is are was were has have had would could should ca wo must need".split()]
    + [
        f"{who}{end}"
        for who in "i you we they he she it that there what who let".split()
        for end in ("'s", "'re", "'ve", "'ll", "'d", "'m")
    ]
)
"""Contractions ("don't", "we'll"): the tokens keep an apostrophe, so the stopword lists miss them
(a new user's ladder had a category named "Don't")."""


def _terms(text: str) -> set[str]:
    return {w.casefold() for w in _WORD.findall(text)}


GENERIC = frozenset(
    "new old good bad fine better worse best great nice little lot bit thing things stuff time times "
    "day days week weeks just okay ok quick "
    "got get gets getting kept keep keeps keeping made make makes making did done doing went gone go goes going "
    "came took gave put failed fail fails failing tried tries trying worked works working used uses using "
    "need needs needed said told asked found had".split()
)
"""Words that say how or when, never what (scikit-learn's stopwords keep them), and verbs that
say nothing of what was done ("Got", "Kept", "Failed", where "Restarted" names a technique): a
phrase may hold one ("new pads"), a name of one word may not (a bike workshop's principle was
named "New")."""


def _usable(phrase: str, allowed: set[str]) -> bool:
    tokens = phrase.split()
    if all(t.casefold() in GENERIC for t in tokens):  # "New", "Kept failing"
        return False
    if len({stem(t.casefold()) for t in tokens}) < len(tokens):
        return False  # "runbook runbook", "exam exams": a seam (a name and its text), not a phrase
    return all(not is_name(t) and t.casefold() in allowed for t in tokens)


def _ranked(usable: list[int], phrases: np.ndarray, words: np.ndarray, scores: np.ndarray, k: int) -> list[str]:
    """Phrases first (those within PHRASE_SHARE of the best word), then the rest; no phrase
    contained in one already chosen."""
    if not usable:
        return []
    best_word = max((scores[j] for j in usable if words[j] == 1), default=0.0)
    first = [j for j in usable if words[j] > 1 and scores[j] >= PHRASE_SHARE * best_word]
    chosen: list[str] = []
    for j in [*first, *[j for j in usable if j not in first]]:
        phrase = phrases[j].casefold()
        forms = {stem(t) for t in phrase.split()}
        if any(re.search(rf"\b{re.escape(phrase)}\b", c) or forms == {stem(t) for t in c.split()} for c in chosen):
            continue  # within one already chosen, or the same words in another form ("exam", "exams")
        chosen.append(phrase)
        if len(chosen) == k:
            break
    return [
        " ".join(w if w.isupper() else w.casefold() for w in c.split()).capitalize()
        if not c.split()[0].isupper()
        else c
        for c in (_cased(c, phrases) for c in chosen)
    ]


def _cased(phrase: str, phrases: np.ndarray) -> str:
    """The phrase as the members wrote it (acronyms stay capitals)."""
    return next((p for p in phrases if p.casefold() == phrase), phrase)


def distinct_names(
    names: Sequence[str], fixed: Sequence[bool], phrases: Sequence[Sequence[str]], children: Sequence[Sequence[str]]
) -> list[str]:
    """Sibling names made distinct (any case): a stored node (``fixed``) keeps its name, then
    each node in turn keeps its name unless a sibling already has it; a repeated name gives way
    to the node's first key phrase (``phrases``) no sibling has, else to its ``children``'s most
    frequent term found in no sibling's name (capitalised). A node left nothing keeps its name."""
    order = [i for i in range(len(names)) if fixed[i]] + [i for i in range(len(names)) if not fixed[i]]
    taken: set[str] = set()
    out = list(names)
    for i in order:
        if out[i].lower() in taken:
            spare = [p for p in phrases[i] if p.lower() not in taken]
            sibling_terms = {t for n in [*names, *taken] for t in content_terms(n)} | stop_words() | GENERIC
            terms = top_terms(action_texts(list(children[i])), k=1, exclude=sibling_terms)
            out[i] = spare[0] if spare else terms[0].capitalize() if terms else out[i]
        taken.add(out[i].lower())
    return out


def describe(p: ExtractedPattern) -> str:
    """ "Name: IF condition → THEN action", from the extraction's own words; "Name: condition"
    when the first action is the name (the next one may be another case's)."""
    actions = [a for a in p.actions if a.strip().lower() != p.name.strip().lower()]
    if p.conditions and p.actions and p.actions[0] not in actions:
        return f"{p.name}: {p.conditions[0]}"
    if p.conditions and actions:
        return f"{p.name}: {p.conditions[0]} → {actions[0]}"
    if actions:
        return f"{p.name}: {actions[0]}"
    return p.name
