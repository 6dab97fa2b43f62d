"""Small, deterministic text tools the offline behaviours build their outputs with.

Everything here selects, trims or counts words of the text it is given; nothing adds words.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from graphmind.errors import ValidationError

STOPWORDS = frozenset(
    """
a about above after again against all also am an and any are as at be because been before
being below between both but by can could did do does doing down during each few for from
further had has have having he her here hers herself him himself his how i if in into is it
its itself just me more most my myself no nor not now of off on once only or other our ours
ourselves out over own same she should so some such than that the their theirs them
themselves then there these they this those through to too under until up very was we were
what when where which while who whom why will with would you your yours yourself yourselves
hey okay yes yeah still back again been into onto upon also just even ever every much many
must might shall may didn doesn isn wasn weren hasn haven hadn couldn wouldn shouldn aren
""".split()
)

_WORD = re.compile(r"[^\W\d_]+")
_TOKEN = re.compile(r"[^\W_]+(?:[-_.'][^\W_]+)*")
_FINE = re.compile(r"\s+—\s+|;\s+")
_SENTENCE_END = re.compile(r"[.!?…]+[\"'”’)\]]*\s+|\n+")
_CONTINUES = frozenset(
    """
e.g eg i.e ie vs cf viz approx ca incl esp resp dr mr mrs ms prof st fig figs eq eqs ref refs
vol pp
""".split()
)
"""Abbreviations that are not the end of a sentence whatever follows ("e.g. the", "Dr. Lee")."""
_ENDS_BEFORE_CAPITAL = frozenset("etc al inc ltd co corp jr sr min max sec hr hrs mins secs a.m p.m".split())
"""Abbreviations that end a sentence only when a capitalised word follows ("… etc. Then")."""


_AFTER_NUMBER = re.compile(r"(?<![\w.])\d(?:[\d.,]*\d)?\s?([^\W\d_]+)")
"""A word right after a number that stands alone (not the digit ending S3, EC2 or IPv6)."""


def unit_words(texts: Iterable[str]) -> set[str]:
    """The words (lower-case) written right after a number in more than half of their uses in
    ``texts``: units and counts ("60 cm", "2.5 arcsec", "85 percent", "10 minutes"), the
    setting of a technique, never what it is about or how two techniques relate."""
    texts = list(texts)
    after = Counter(m.group(1).lower() for t in texts for m in _AFTER_NUMBER.finditer(t))
    if not after:
        return set()
    uses = Counter(w for t in texts for w in words(t))
    return {w for w, n in after.items() if 2 * n > uses[w]}


def words(text: str) -> list[str]:
    """The letter runs of ``text``, lower-cased: what grounding is checked on."""
    return _WORD.findall(text.lower())


def content_terms(text: str) -> list[str]:
    """Words of 4+ letters that are not stopwords, lower-cased, in order, with repeats."""
    return [w for w in words(text) if len(w) >= 4 and w not in STOPWORDS]


def term_set(text: str) -> set[str]:
    return set(content_terms(text))


_SUFFIXES = ("ations", "ation", "ings", "ing", "ers", "er", "ed", "es", "s", "e")


def stem(term: str) -> str:
    """``term`` without its first inflection suffix that leaves at least four letters, so
    forms of one word compare equal ("brining", "brined" → "brin"; "rates" → "rate")."""
    for suffix in _SUFFIXES:
        if term.endswith(suffix) and len(term) - len(suffix) >= 4:
            return term[: -len(suffix)]
    return term


def stems(text: str) -> set[str]:
    """The stems of the content terms of ``text``."""
    return {stem(t) for t in content_terms(text)}


def tokens(text: str) -> list[str]:
    """Word tokens as written (case kept; ``file.py``, ``sleep-patch`` stay whole)."""
    return _TOKEN.findall(text)


def sentences(text: str, *, fine: bool = False) -> list[str]:
    """``text`` cut into sentences (and lines), stripped, empty ones dropped.

    A sentence ends at ".", "!", "?" or "…" (closing quotes or brackets may follow) before
    white space, and at a line break; so decimals, versions and file names ("2.1%",
    "v1.2.3", "Python 3.11", "app.py") never cut. A "." does not end a sentence after an
    abbreviation that always continues ("e.g.", "i.e.", "vs.", "Dr.", "Fig. 3", ``_CONTINUES``),
    after "No." before a number, or after an initial ("J. Smith"); after "etc.", "Inc.", "a.m." and the like
    (``_ENDS_BEFORE_CAPITAL``) it does only when a capitalised word follows, as it does after
    an ellipsis; a list number ("1. ") at the start never ends one.
    ``fine`` also cuts at " — " and "; " (the separators of a node's joined text fields).
    """
    parts, start = [], 0
    for end in _SENTENCE_END.finditer(text):
        mark = end.group(0)
        if "\n" in mark or _ends_sentence(text[start : end.start()], mark, text[end.end() :]):
            parts.append(text[start : end.end()].rstrip())
            start = end.end()
    parts.append(text[start:])
    if fine:
        parts = [p for part in parts for p in _FINE.split(part)]
    return [s.strip(" -•\t") for s in parts if s and s.strip(" -•\t")]


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` (see ``sentences``); ``text`` stripped when it has none."""
    found = sentences(text)
    return found[0] if found else text.strip()


def _ends_sentence(before: str, mark: str, after: str) -> bool:
    """Whether the punctuation ``mark`` after ``before`` ends the sentence, ``after`` following."""
    stop = mark.strip()
    capital = bool(after) and (after[0].isupper() or after[0] in "\"'“‘([")
    if stop.rstrip("\"'”’)]")[-1:] in "!?":
        return True
    if len(stop.rstrip("\"'”’)]")) > 1 or stop.startswith("…"):  # an ellipsis: only before a capital
        return capital
    if stop != ".":  # "." then a closing quote or bracket: the quotation or aside ends there
        return True
    word = before.rsplit(None, 1)[-1].lstrip("\"'“‘([") if before.strip() else ""
    key = word.lower()
    initial = len(word) == 1 and word.isupper() and capital
    if key in _CONTINUES or initial or (key == "no" and after[:1].isdigit()):
        return False
    if key in _ENDS_BEFORE_CAPITAL:
        return capital
    if "." in key and all(0 < len(part) <= 2 for part in key.split(".")):  # "U.S", "a.k.a"
        return capital
    return not (word.isdigit() and not before[: -len(word)].strip())  # "1. " opening a list


def trim(text: str, max_chars: int = 200) -> str:
    """``text`` on one line, cut at a word boundary to at most ``max_chars`` (with "…")."""
    flat = " ".join(text.split())
    if len(flat) <= max_chars:
        return flat
    cut = flat[: max_chars - 1]
    if " " in cut:
        cut = cut[: cut.rfind(" ")]
    return cut.rstrip(" ,;:-") + "…"


def as_sentence(text: str) -> str:
    """``text`` ending with a full stop unless it already ends with punctuation."""
    text = text.rstrip()
    return text if not text or text[-1] in ".!?…" else text + "."


def plural(count: int, singular: str, plural_form: str) -> str:
    return f"{count} {singular if count == 1 else plural_form}"


def overlap(a: Iterable[str], b: Iterable[str]) -> set[str]:
    return set(a) & set(b)


def jaccard(a: Iterable[str], b: Iterable[str]) -> float:
    sa, sb = set(a), set(b)
    return len(sa & sb) / len(sa | sb) if sa | sb else 0.0


def rank_by_overlap(texts: Sequence[str], query: str) -> list[int]:
    """Indices of ``texts`` by descending term overlap with ``query``; ties keep input order."""
    query_terms = term_set(query)
    scores = [len(term_set(t) & query_terms) for t in texts]
    return sorted(range(len(texts)), key=lambda i: (-scores[i], i))


def best_sentences(texts: Sequence[str], query: str, k: int = 3, min_overlap: int = 0) -> list[str]:
    """The ``k`` sentences of ``texts`` sharing most terms with ``query`` (each once, in rank order)."""
    pool: list[str] = []
    for text in texts:
        for sentence in sentences(text):
            if sentence not in pool:
                pool.append(sentence)
    query_terms = term_set(query)
    ranked = rank_by_overlap(pool, query)
    chosen = [pool[i] for i in ranked if len(term_set(pool[i]) & query_terms) >= min_overlap]
    return chosen[:k]


def top_terms(texts: Iterable[str], k: int = 5, exclude: Iterable[str] = ()) -> list[str]:
    """The ``k`` most frequent content terms of ``texts``; ties go to the first seen."""
    skip = set(exclude)
    counts: dict[str, int] = {}
    for text in texts:
        for term in content_terms(text):
            if term not in skip:
                counts[term] = counts.get(term, 0) + 1
    return sorted(counts, key=lambda t: -counts[t])[:k]


def shared_terms(texts: Sequence[str], min_share: int = 2) -> list[str]:
    """Content terms found in at least ``min_share`` of ``texts``, most widely shared first."""
    seen: dict[str, int] = {}
    for text in texts:
        for term in dict.fromkeys(content_terms(text)):
            seen[term] = seen.get(term, 0) + 1
    shared = [t for t, n in seen.items() if n >= min_share]
    return sorted(shared, key=lambda t: -seen[t])


def shared_phrase(texts: Sequence[str], max_words: int = 6) -> str | None:
    """The longest run of words (as written in the first text) that every text contains.

    Only runs that start and end with a content word count; None when there is none.
    """
    if not texts:
        return None
    first = tokens(texts[0])
    lowered = [" " + " ".join(t.lower() for t in tokens(text)) + " " for text in texts]
    for size in range(min(max_words, len(first)), 0, -1):
        for start in range(len(first) - size + 1):
            run = first[start : start + size]
            if not (_is_content(run[0]) and _is_content(run[-1])):
                continue
            needle = " " + " ".join(t.lower() for t in run) + " "
            if all(needle in text for text in lowered):
                return " ".join(run)
    return None


def _is_content(token: str) -> bool:
    return bool(content_terms(token))


_STARTING_POINT = re.compile(r"(?i)\b(?:since|from|until|till|as of)\b|^\s*(?:in\s+)?\d{4}\s*$")


def for_duration(value: str) -> str:
    """How long, after a sentence: ' for 3 years', but ', since April' (or ', 2019') for a
    starting point (a partner's "since April" read "Partner to Gus for since April")."""
    if not value:
        return ""
    return f", {value}" if _STARTING_POINT.search(value) else f" for {value}"


def join_names(values: Iterable[str], empty: str = "none") -> str:
    """``a, b and c`` (or ``empty``)."""
    items = [v for v in values if v]
    if not items:
        return empty
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


_TOKEN_PIECE = re.compile(r"[^\W_]+|[^\s\w]|_")


def approximate_tokens(text: str) -> int:
    """graphmind's local token estimate, meant to err high: each run of letters or digits costs
    one token per started five characters, each other visible character one token, spaces and
    line breaks nothing. On the context-object spec's Complete Example, which the spec puts at
    "~560 tokens", it counts 687. Providers that can count exactly do (``LLM.count_tokens``)."""
    return sum(-(-len(piece) // 5) if piece[0].isalnum() else 1 for piece in _TOKEN_PIECE.findall(text))


def checked_text(value: object, what: str, field: str) -> str:
    """``value`` if it is non-empty text that is valid UTF-8, else ValidationError naming ``what``."""
    if not isinstance(value, str):
        raise ValidationError(f"{what} must be a string, not {type(value).__name__}", field=field)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationError(f"{what} is not valid UTF-8 (it holds undecodable bytes)", field=field) from None
    if not value.strip():
        raise ValidationError(f"{what} is empty", field=field)
    return value


def leaves(value: Any) -> Iterator[Any]:
    """Every scalar inside ``value`` (models, mappings' values, sequences, sets), None left out."""
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    if isinstance(value, Mapping):
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from leaves(item)
    elif value is not None:
        yield value
