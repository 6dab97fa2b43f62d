"""Pure parts of embedding and recall: what to embed, the full-text query, rank fusion."""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from graphmind.errors import UnknownLabelError, ValidationError
from graphmind.models import NODE_TYPES, RECALLED_LABELS, node_model
from graphmind.text import checked_text

MAX_K = 1000
"""The most hits one recall returns."""
MAX_QUERY_TERMS = 64
"""At most the first 64 distinct words of a recall text are its terms (a longer text adds cost,
not precision); fewer are asked when the fields searched would take them past ``MAX_CLAUSES``.
The vector side follows the embedder's rule."""
MAX_CLAUSES = 1000
"""A full-text query asks at most this many term-in-field clauses: Lucene refuses more than
1,024 (a 64-word message asked in 40 fields failed recall with a StoreError)."""
INDEX_FIELDS = 40
"""The fields of the full-text index (schema/003_search_indexes.cypher): an unqualified term is
asked in each."""
RRF_K = 60
"""The constant of reciprocal-rank fusion (Cormack et al., 2009): score = sum 1 / (60 + rank)."""

_WORD = re.compile(r"[^\W_]+")
_UNSAFE_PHRASE = re.compile(r'["\\\s]')
_STOPWORDS = frozenset(
    "a an and are as at be but by for from has have he her his i if in into is it its me my no "
    "not of on or our she so that the their them then there these they this to was we were what "
    "when where which who why will with you your s".split()  # s: of "Tomasz's", split at the apostrophe
)


@dataclass(frozen=True)
class EmbedPlan:
    """Which memories need a new embedding, and which are current (or have no text)."""

    to_embed: list[tuple[str, str, str]]  # (uid, text, text_hash)
    current: list[str]  # uids whose stored embedding matches their text and the model
    no_text: list[str]  # uids with nothing to embed


@dataclass(frozen=True)
class Ranked:
    """One candidate of one search, best first."""

    uid: str
    score: float


@dataclass(frozen=True)
class Fused:
    """A memory after reciprocal-rank fusion, with its place in each search (1-based)."""

    uid: str
    score: float
    vector_rank: int | None = None
    vector_score: float | None = None
    text_rank: int | None = None
    text_score: float | None = None


def text_hash(text: str) -> str:
    """The content hash stored with an embedding: unchanged text is never re-embedded."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def plan_embedding(rows: Iterable[Mapping[str, Any]], model_id: str) -> EmbedPlan:
    """Sort stored memories (uid, label, props) into those to embed and those already current."""
    to_embed: list[tuple[str, str, str]] = []
    current: list[str] = []
    no_text: list[str] = []
    for row in rows:
        props = row["props"]
        text = stored_text(row["label"], props)
        if not text:
            no_text.append(row["uid"])
            continue
        digest = text_hash(text)
        if props.get("embedding_model") == model_id and props.get("embedding_hash") == digest:
            current.append(row["uid"])
        else:
            to_embed.append((row["uid"], text, digest))
    return EmbedPlan(to_embed, current, no_text)


def stored_text(label: str, props: Mapping[str, Any]) -> str | None:
    """The derived text of a stored node, without re-validating what the store already holds."""
    return node_model(label).model_construct(**props).derived_text()


def check_query_text(text: object) -> str:
    """``text`` if it can be recalled with, else ValidationError (empty, not text, not UTF-8)."""
    return checked_text(text, "query text", "text")


def capitalised(text: str) -> set[str]:
    """The words ``text`` writes with a capital (lower-cased): names, and a sentence's first word."""
    return {w.lower() for w in _WORD.findall(text) if w[:1].isupper()}


def query_terms(text: str, limit: int = MAX_QUERY_TERMS) -> list[str]:
    """The first ``limit`` distinct lower-case words of ``text`` that are not stopwords."""
    terms: dict[str, None] = {}
    for word in _WORD.findall(text.lower()):
        if word not in _STOPWORDS:
            terms.setdefault(word)
            if len(terms) == limit:
                break
    return list(terms)


def lucene_query(
    terms: Sequence[str],
    mind: str | None,
    phrases: Sequence[str] = (),
    fields: Sequence[str] = (),
    possessive: Collection[str] | None = None,
) -> str | None:
    """A Lucene query for ``mind``'s memories matching any of ``terms`` or ``phrases``, in
    ``fields`` if given (else in every field the index holds); any mind's when ``mind`` is None
    (caches.TextScopes says when).

    Terms are plain words and mind names letters, digits, '_', '.', '-' (no quote or
    backslash), so nothing needs escaping inside the phrase. Phrases (file names, identifiers)
    are quoted; any with a quote, a backslash or a space is left out. Naming the fields is for
    speed: an unqualified term is looked up in each of the index's ~40 fields. Within
    ``MAX_CLAUSES``: the phrases, the first terms, then their possessives (``_forms``), in order:
    of the terms in ``possessive`` only, when given (recall gives the names a message writes with
    a capital: "Tomasz" finds "Tomasz's Level", while "job" does not turn a question about a
    technique into one about every job a log calls "the reporting job's").
    """
    budget = max(1, MAX_CLAUSES // (len(fields) or INDEX_FIELDS))  # Lucene refuses over 1,024 clauses
    quoted = list(dict.fromkeys(f'"{p}"' for p in phrases if p and not _UNSAFE_PHRASE.search(p)))[:budget]
    room = budget - len(quoted)
    words: list[str] = []
    for term in terms:
        if _cost(term) > room:
            break
        words.append(term)
        room -= _cost(term)
    for term in [w for w in words if possessive is None or w in possessive]:
        forms = _forms(term)[1:]
        if len(forms) > room:
            break
        words += forms
        room -= len(forms)
    clauses = [*words, *quoted]
    if not clauses:
        return None
    anywhere = " OR ".join(clauses)
    if fields:
        anywhere = " OR ".join(f"{field}:({anywhere})" for field in fields)
    return f'mind:"{mind}" AND ({anywhere})' if mind is not None else f"({anywhere})"


def _cost(term: str) -> int:
    """The clauses one term makes: the index's tokenizer makes a token of each ideograph or kana
    (a run of Chinese or Japanese is one of our words, but many of its tokens)."""
    return max(1, sum(1 for ch in term if "\u2e80" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff"))


def _forms(term: str) -> list[str]:
    """A word and its possessives: the index's tokenizer keeps "Tomasz's" (and "Tomasz’s") one
    token, so "tomasz" alone never finds a notebook that writes a customer's name that way."""
    return [term, f"{term}'s", f"{term}\u2019s"] if term.isalpha() and _cost(term) == 1 else [term]


def matched_terms(terms: Sequence[str], text: str | None) -> list[str]:
    """Which query terms occur as words in a memory's text: part of why it was recalled."""
    if not text:
        return []
    words = set(_WORD.findall(text.lower()))
    return [term for term in terms if term in words]


def fuse(vector: Sequence[Ranked], text: Sequence[Ranked], k: int, rrf_k: int = RRF_K) -> list[Fused]:
    """Reciprocal-rank fusion of the two result lists; the best ``k``, ties broken by uid."""
    found: dict[str, dict[str, Any]] = {}
    for source, ranked in (("vector", vector), ("text", text)):
        for rank, hit in enumerate(ranked, start=1):
            entry = found.setdefault(hit.uid, {"uid": hit.uid, "score": 0.0})
            entry["score"] += 1.0 / (rrf_k + rank)
            entry[f"{source}_rank"] = rank
            entry[f"{source}_score"] = hit.score
    fused = [Fused(**entry) for entry in found.values()]
    fused.sort(key=lambda f: (-f.score, f.uid))
    return fused[:k]


def overfetch_factor(fetched: int, own: int, margin: float = 3.0, most: int = 500) -> int:
    """How many candidates to ask an index for per wanted result, from the share of this mind's
    nodes among the last ``fetched`` candidates (with a margin; at least 1, at most ``most``)."""
    if fetched == 0:
        return 1
    share = max(own, 1) / fetched
    return max(1, min(most, math.ceil(margin / share)))


def next_fetch(fetch: int, fetched: int, kept: int, wanted: int, cap: int) -> int | None:
    """How many candidates to ask the index for next, or None when the last answer suffices.

    An index spanning every mind is asked for ``fetch`` candidates; if it returned all of them
    and fewer than ``wanted`` belonged to this mind, ask for eight times as many (up to ``cap``).
    """
    if kept >= wanted or fetched < fetch or fetch >= cap:
        return None
    return min(fetch * 8, cap)


def check_k(k: object, most: int = MAX_K) -> None:
    """ValidationError unless ``k`` is a whole number from 1 to ``most``."""
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= most:
        raise ValidationError(f"k must be a whole number from 1 to {most}, not {k!r}", field="k")


def text_fields(labels: Sequence[str]) -> list[str]:
    """The properties the full-text index holds for memories of ``labels``: each type's
    TEXT_FIELDS, and ``text``, which any memory may carry."""
    fields = {"text"}
    for label in labels:
        fields.update(NODE_TYPES[label].TEXT_FIELDS)
    return sorted(fields)


def check_labels(labels: Sequence[str] | None) -> list[str]:
    """The labels to search: the ones asked for (each a memory label), else RECALLED_LABELS."""
    if not labels:
        return list(RECALLED_LABELS)
    if isinstance(labels, str):
        labels = [labels]
    for label in labels:
        model = NODE_TYPES.get(label)
        if model is None or model.KIND != "memory":
            known = ", ".join(sorted(n for n, m in NODE_TYPES.items() if m.KIND == "memory"))
            raise UnknownLabelError(f"{label!r} is not a memory label graphmind knows ({known})", field="labels")
    return list(labels)
