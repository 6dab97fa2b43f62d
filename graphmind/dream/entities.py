"""Names of particular things (services, customers, people, hosts) in experience texts.

Two uses, both pure:

- grouping follows the action, not the thing acted on: ``action_text`` drops the names from a
  description before the dream groups it by meaning ("Rolled back the payments-api deploy" and
  "Rolled back the auth-gateway deploy" are one technique; the embedding of the full text
  leans on the shared service instead);
- a ladder name above level 1 holds no name (``is_name``) and no term that only one child
  uses (``general_terms``): a category speaks of what its members share.

A token is a name by its shape, with no list of known names:
an identifier (a hyphen, underscore, dot or slash inside a word: ``payments-api``, ``db_07``,
``api.v2``; letters mixed with digits: ``db07``, ``eu-west-1``), an inner capital
(``ProfileStore``), or a capitalised word that does not start a sentence or clause
(``the Redis cache``, ``Nicolas said``). Sentence-initial words, stopwords, "I" and all-caps
acronyms of up to 4 letters (API, CDN, DNS) are kept: they are as often common nouns.
Lower-case names ("the ledger service") have no shape of their own; across a batch of texts
(``action_texts``) a word that owns something somewhere ("the toaster's lever", "billing's
DB", "the stand mixer's gears") is the thing acted on, and it is left out of every text of the
batch, with the words written right before it ("stand" in "stand mixer"), as the possessor
of a part is what a remediation or repair log applies its technique to. Contractions ("it's",
"let's") and times ("this morning's release") are no possessors. What takes a name's place
in a text otherwise word for word the same (``slot_mates``: "Rolled back the search indexer
deploy" beside "Rolled back the payments-api deploy", as a runbook or an alert template
writes them) is a name too, and is left out of every text of the batch. Elsewhere the ladder's
``general_terms`` keeps a lower-case name out of names above level 1 when one child holds it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from graphmind.dream.deeds import TITLES
from graphmind.dream.readable_cut import cut
from graphmind.text import STOPWORDS

_WORD = re.compile(r"[A-Za-z0-9][\w'’./-]*[\w]|[A-Za-z0-9]")
_IDENTIFIER = re.compile(r"\w[-_./]\w|[A-Za-z]\d|\d[A-Za-z]")
_INNER_CAPITAL = re.compile(r"[a-z][A-Z]")
_PREFIXED = re.compile(
    r"(?i:re)-[a-z]{2,}|(?i:pre|de|un|co|self|over|under|mis|dis|post|counter)-[a-z]{2,}(?:ed|ing)"
    r"|[A-Za-z][a-z]+-[a-z]{3,}(?<!ee)d(?<=ed)"
)
"""A verb with a prefix (re-seated, re-took, pre-cooled, over-tightened, co-located) or a compound
verb in the past (safety-wired, power-cycled, hot-swapped): the action itself, which a hyphen
would otherwise mark as an identifier. Only "re-" takes any word; the other prefixes take a verb
form, and a compound takes "-ed" on a word of four letters or more, not "-eed", so pre-prod,
non-prod, sub-ledger, co-pilot, order-routing, news-feed and test-bed stay names."""
_CLAUSE_START = re.compile(r"(?:^|[.!?:;]\s+|\n\s*|[\"“(]\s*)$")
_SUBJECT = re.compile(r"^\s*[^\s:]+(?:\s+[^\s:]+){0,2}:\s+(?=\S)")
_POSSESSIVE = re.compile(r"((?:[A-Za-z][\w-]*[ \t]+){0,2})([A-Za-z][\w-]*)['’]s\b")
DATES = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday january february march april may "
    "june july august september october november december".split()
)
"""Days and months: a time, which names no thing a technique is applied to ("from 1 October")."""
_NOT_POSSESSORS = DATES | frozenset(
    "let one everyone someone anyone nobody name today tonight yesterday tomorrow morning "
    "afternoon evening night day week weekend month year hour minute second season quarter".split()
)
MODIFIERS = 2
"""Words written right before a possessor that belong to its name ("blue commuter bike's")."""
POSSESSOR_SHARE = 0.08
"""A word owns something in at least this share of the texts that hold it to count as a name:
in the crossed logs of tests/data every entity that owns something does so in 1/8 of its
lines or more; in CLINC150's 7,500 requests, common nouns that own something now and then
("account's", "the flight's", "my bill's") do so in 1/20 of theirs or less."""


def name_spans(text: str, *, dates: bool = True) -> list[tuple[int, int]]:
    """(start, end) of each token of ``text`` that names a particular thing (see the module);
    ``dates``: days and months too (what grouping cuts: on the ``ops`` log, keeping them took
    pattern ARI from 0.777 to 0.741); the readable text keeps them."""
    spans = []
    titled = False  # the word after a title ("Dr. Okonkwo") is a name, at a clause's start too
    for m in _WORD.finditer(text):
        token = m.group(0).rstrip("./")
        at = m.start()
        if titled and token[:1].isupper():
            spans.append((at, at + len(token)))
            titled = False
            continue
        titled = token.istitle() and token.casefold() in TITLES  # "Dr", not the acronym "DR"
        if titled:
            end = at + len(token)
            spans.append((at, end + 1 if text[end : end + 1] == "." else end))  # "Dr." goes whole
            continue
        if _UNIT.fullmatch(token) and at >= 2 and text[at - 1].isspace() and text[at - 2].isdigit():
            continue  # "95 Nm", "12 V", "3 GB": the unit of a quantity, which is no name either
        if not dates and token.casefold() in DATES:
            continue  # "on Thursday", "from 1 October": when, not what ("from 1" once cut)
        opens = token[:1].isupper() and bool(_CLAUSE_START.search(text[: m.start()]))  # only a capital asks
        if is_name(token, clause_start=opens):
            spans.append((m.start(), m.start() + len(token)))
    return spans


_UNIT = re.compile(
    r"[^\W\d_]{1,3}|[a-z]{4}|(?:ft|in|N|kN|kW|W|m|km|mi|lb|kg|g)-(?:lb|lbf|m|h|s|min|hr)|[^\W\d_]{1,3}/[^\W\d_]{1,3}"
)
"""A unit after a number: up to three letters ("Nm", "V", "GB", "kg"), four lower-case ("mins"),
or a compound unit ("ft-lb", "km/h", "L/hl", "g/L"); "3 Ceph OSDs", "2 Jira tickets" and "2
api-gw" keep their names."""
_QUANTITY = re.compile(
    r"\d+(?:[.,]\d+)?(?:x\d+(?:[.,]\d+)?)*(?:[^\W\d_]{0,4}|-(?:second|minute|hour|day|week|month|year|inch|foot|mile|way|step|"
    r"point|page|fold|cycle|shift|flight|man|person|seat)s?)"
)
"""A number with a unit of up to four letters, any case ("80C", "16GB", "100Mbps"), or none, a
dimension ("35x1mm", "700x28c"), or a
measure joined by a hyphen ("100-hour", "3-way"; "404-handler" and "7-zip" stay names)."""


def is_name(token: str, *, clause_start: bool = False) -> bool:
    """True when ``token``'s shape says it names one thing. A number alone ("500s", "2.1")
    is a quantity, not a name; neither is a stopword or a short acronym."""
    if token.isalpha() and token.islower():
        return False  # most words: no shape of a name (the checks below would say the same)
    if len(token) < 2 or token.casefold() in STOPWORDS or token.casefold().rstrip("s") in STOPWORDS:
        return False
    if not any(ch.isalpha() for ch in token) or _QUANTITY.fullmatch(token):
        return False  # 500, 2.1, 500s, 3rd, 80C, 16GB, 1.5L, 60min: a quantity, a setting of the technique
    if _PREFIXED.fullmatch(token):
        return False  # re-seated, pre-cooled, self-test: a word with a prefix, not a service's name
    if _IDENTIFIER.search(token) or _INNER_CAPITAL.search(token):
        return True
    if token.isupper():
        return len(token) > 4
    return token[0].isupper() and not clause_start


def possessors(texts: Sequence[str]) -> dict[str, frozenset[str]]:
    """Each word that owns something in ``texts`` (case-folded; "toaster" of "the toaster's
    lever") in at least ``POSSESSOR_SHARE`` of the texts that hold it, with the words seen
    right before it, up to a stopword (``MODIFIERS``)."""
    found: dict[str, set[str]] = {}
    owning: dict[str, int] = {}
    for text in texts:
        heads = set()
        for m in _POSSESSIVE.finditer(text):
            head = m.group(2).casefold()
            if len(head) < 2 or head in STOPWORDS or head in _NOT_POSSESSORS or not head.isascii():
                continue
            heads.add(head)
            modifiers = found.setdefault(head, set())
            for word in reversed(m.group(1).split()):
                if word.casefold() in STOPWORDS:
                    break
                modifiers.add(word.casefold())
        for head in heads:
            owning[head] = owning.get(head, 0) + 1
    if not found:
        return {}
    holding = dict.fromkeys(found, 0)
    for text in texts:
        for word in {_bare(m.group(0)) for m in _WORD.finditer(text)}:
            if word in holding:
                holding[word] += 1
    return {
        head: frozenset(modifiers)
        for head, modifiers in found.items()
        if owning[head] >= POSSESSOR_SHARE * holding[head]
    }


def _bare(token: str) -> str:
    """A token case-folded, without a trailing possessive or full stop."""
    return re.sub(r"['’]s$", "", token.rstrip("./")).casefold()


@dataclass(frozen=True)
class BatchNames:
    """The names a batch's texts share: possessors (``possessors``) and slot mates (``slot_mates``)."""

    heads: dict[str, frozenset[str]]
    mates: set[tuple[str, ...]]


def batch_names(texts: Sequence[str]) -> BatchNames:
    heads = possessors(texts)
    return BatchNames(heads, slot_mates(texts, heads))


def action_texts(texts: Sequence[str], *, readable: bool = True, names: BatchNames | None = None) -> list[str]:
    """``action_text`` of each of ``texts``, also without the ``possessors`` found across all
    of them and the ``slot_mates`` of the names (``names``, found in ``texts`` unless given; a
    text left with fewer than two words keeps its ``action_text``). ``readable`` as in
    ``action_text``."""
    names = names or batch_names(texts)
    return [action_of(text, names, readable=readable) for text in texts]


def action_of(text: str, names: BatchNames, *, readable: bool = True) -> str:
    """One text of a batch as ``action_texts`` gives it."""
    action = action_text(text, readable=readable)
    spans = _possessor_spans(action, names.heads) if names.heads else []
    spans = sorted(spans + _phrase_spans(action, names.mates, spans)) if names.mates else spans
    if not spans:
        return action
    return cut(action, spans, readable) or action


def slot_mates(texts: Sequence[str], heads: dict[str, frozenset[str]] | None = None) -> set[tuple[str, ...]]:
    """Phrases of 1-3 words (case-folded) that take a name's place in a text otherwise word
    for word the same as one naming it by its shape or a possessor ("Rolled back the [search
    indexer] deploy" beside "Rolled back the [payments-api] deploy"), with at least
    ``MIN_CONTEXT`` words around them, in at least ``POSSESSOR_SHARE`` of the texts that hold
    them: what fills a name's slot in the same wording is a name too."""
    tokens = [[m.group(0).rstrip("./").casefold() for m in _WORD.finditer(t)] for t in texts]
    named = [_name_flags(text, words, heads or {}) for text, words in zip(texts, tokens)]
    slots = {
        (tuple(words[:i]), tuple(words[j:]))
        for words, flags in zip(tokens, named)
        for i, j in _runs(flags)
        if len(words) - (j - i) >= MIN_CONTEXT
    }
    lefts = {left for left, _ in slots}
    seen: dict[tuple[str, ...], int] = {}
    for words, flags in zip(tokens, named):
        found = set()
        for i in range(len(words)):
            if tuple(words[:i]) not in lefts:
                continue
            for n in (1, 2, 3):
                phrase = tuple(words[i : i + n])
                if len(phrase) < n or any(flags[i : i + n]) or not _content(phrase):
                    continue
                if (tuple(words[:i]), tuple(words[i + n :])) in slots:
                    found.add(phrase)
        for phrase in found:
            seen[phrase] = seen.get(phrase, 0) + 1
    holding = dict.fromkeys(seen, 0)
    for words in tokens:
        for phrase in {tuple(words[i : i + n]) for n in (1, 2, 3) for i in range(len(words) - n + 1)} & holding.keys():
            holding[phrase] += 1
    return {p for p, n in seen.items() if n >= POSSESSOR_SHARE * holding[p]}


MIN_CONTEXT = 3
"""Words outside a slot that its two texts must share word for word ("call [Tom]" beside
"call [home]" is too little to tell a name's place)."""


def _name_flags(text: str, words: list[str], heads: dict[str, frozenset[str]]) -> list[bool]:
    spans = name_spans(text)
    starts = [m.start() for m in _WORD.finditer(text)] if spans else []
    flags = [any(a <= s < b for a, b in spans) for s in starts] if spans else [False] * len(words)
    if not heads:
        return flags
    return [f or re.sub(r"['’]s$", "", w) in heads for f, w in zip(flags, words)]


def _runs(flags: list[bool]) -> list[tuple[int, int]]:
    runs, start = [], None
    for k, flag in enumerate([*flags, False]):
        if flag and start is None:
            start = k
        elif not flag and start is not None:
            runs.append((start, k))
            start = None
    return runs


def _content(phrase: tuple[str, ...]) -> bool:
    """A phrase that starts and ends with a word that is no stopword (nor a number)."""
    return all(w not in STOPWORDS and w.isalpha() for w in (phrase[0], phrase[-1]))


def _phrase_flags(words: list[str], phrases: set[tuple[str, ...]]) -> list[bool]:
    flags = [False] * len(words)
    for i in range(len(words)):
        for n in (1, 2, 3):
            if i + n <= len(words) and tuple(words[i : i + n]) in phrases:
                flags[i : i + n] = [True] * n
    return flags


def _phrase_spans(text: str, phrases: set[tuple[str, ...]], taken: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Character spans of ``phrases`` in ``text`` (whole words) outside the ``taken`` ones."""
    matches = list(_WORD.finditer(text))
    words = [m.group(0).rstrip("./").casefold() for m in matches]
    flags = _phrase_flags(words, phrases)
    spans = [(matches[a].start(), matches[b - 1].start() + len(words[b - 1])) for a, b in _runs(flags)]
    return [(a, b) for a, b in spans if not any(x < b and a < y for x, y in taken)]


def _possessor_spans(text: str, heads: dict[str, frozenset[str]]) -> list[tuple[int, int]]:
    tokens = list(_WORD.finditer(text))
    spans = []
    for k, m in enumerate(tokens):
        word = _bare(m.group(0))
        if word not in heads:
            continue
        first = k
        while (
            first > 0
            and k - first < MODIFIERS
            and tokens[first - 1].group(0).casefold() in heads[word]
            and not text[tokens[first - 1].end() : tokens[first].start()].strip()
        ):
            first -= 1
        spans.append((tokens[first].start(), m.end()))
    return spans


def action_text(text: str, *, readable: bool = True) -> str:
    """``text`` without the names it mentions and without a leading "subject: " of up to 3
    words (spaces tidied; ``readable``: as a sentence, ``readable_cut.cut``): what was done, to no one
    in particular. Unchanged when it names nothing."""
    subject = _SUBJECT.match(text)
    if subject:  # "billing cron: restarted it" - a log line's subject, then what was done
        text = text[subject.end() :]
    spans = name_spans(text, dates=not readable)
    if not spans:
        return text
    return cut(text, spans, readable) or text  # else a name was all it said ("bye-bye")


def general_terms(term_docs: Sequence[set[str]], min_children: int = 2) -> set[str]:
    """The terms found in at least ``min_children`` of the children (each child's terms a
    set): what a parent may be named by. With a single child, every term of it."""
    if len(term_docs) < 2:
        return set().union(*term_docs) if term_docs else set()
    counts: dict[str, int] = {}
    for terms in term_docs:
        for t in terms:
            counts[t] = counts.get(t, 0) + 1
    return {t for t, c in counts.items() if c >= min(min_children, len(term_docs))}
