"""A name cut out of a sentence so that what is left still reads as one (``cut``): the
readable form of ``graphmind.dream.entities.action_text``, used for pattern names and
descriptions. Names side by side or joined by a connector go as one, a preposition left with
nothing to govern goes with them (with its article: a preposition's whole object phrase), an
article agrees with its new next word, or stands for "one", "it" or "them" where no noun is left
after a verb, or for "it" or "they" before the verb of a subject ("[The Mavic] was trued"
-> "It was trued"), and brackets emptied of names go."""

from __future__ import annotations

import re

from graphmind.dream.deeds import is_past

_JOINED = re.compile(r"\s*(?:[,&/\-–]|and|or|to|vs\.?)?\s*", re.I)
"""What may stand between two names cut as one ("Norwegian to English", "Ana and Ben")."""
_BEFORE_NAME = re.compile(r"\b(?:with|between|to|for|from|by|about|on|in|at|of|into|onto|before|after)\s+$", re.I)
_LOOSE_AFTER = re.compile(r"\s*(?:[,.;:!?(]|$|(?:that|to|and|or|but|so|because|as|in|on|at|for|with)\b)", re.I)
_ARTICLE = re.compile(r"\b([Aa]n?)\s+$")
_SUBJECT_PLACE = re.compile(r"(?:^|[.;:!?]\s*|\b(?:and|but|so|then|when|because|while)\s+)$", re.I)
"""Where an article opens a subject: the start of a sentence or of a clause."""
_AUXILIARIES = frozenset(
    "is are was were has have had will would can could did does do should still keeps needs".split()
)
_THE = re.compile(r"\b[Tt]he\s+$")
_NO_NOUN_AFTER = re.compile(
    r"\s*(?:[,.;:!?]|$|(?:and|or|but|so|because|as|then|than|while|when|since|until|yesterday|today|"
    r"tonight|tomorrow|again|now|twice|once|earlier|later|instead|too|also|here|there|"
    r"to|in|on|at|for|with|from|by|of|into|onto|after|before)\b)",
    re.I,
)
"""What cannot go on a noun phrase whose noun was a name: after a verb an article there stands
for "one" or "it" ("upgraded [an X1] yesterday" -> "upgraded one yesterday", "trued [the Mavic]
again" -> "trued it again"); after a preposition the whole phrase goes ("spoke to [the
Hendersons] again" -> "spoke again")."""


def _without(text: str, spans: list[tuple[int, int]], *, readable: bool = True) -> str:
    """``text`` without ``spans``; ``readable``, as a sentence: names side by side or joined by
    a connector go as one, a preposition left with nothing to govern goes with them ("agreed
    with [Nordlys] that" -> "agreed that"), and an article agrees with its new next word ("an
    [Xbench] QA pass" -> "a QA pass"). Grouping reads the plain cut: on the ``ops`` log the
    readable one took pattern ARI from 0.78 to 0.66 (``bench/dream_quality.py``)."""
    if not readable:
        cuts = [0, *(x for span in spans for x in span), len(text)]
        return _tidy("".join(text[cuts[n] : cuts[n + 1]] for n in range(0, len(cuts), 2)))
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and _JOINED.fullmatch(text[merged[-1][1] : start]):
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    out, last = [], 0
    for start, end in merged:
        before, after = text[last:start], text[end:]
        article = _ARTICLE.search(before)
        the = _THE.search(before)
        det = the or article
        nothing_left = bool(_NO_NOUN_AFTER.match(after)) or after.lstrip().startswith("(")
        if det and _SUBJECT_PLACE.search(before[: det.start()]) and _verb_next(after):  # "[The Mavic] was trued"
            word = "they" if _plural(text[start:end]) else "it"
            before = before[: det.start()] + _pronoun(before[det.start()], word) + " "
        elif det and nothing_left and _BEFORE_NAME.search(before[: det.start()]):
            before = _BEFORE_NAME.sub("", before[: det.start()])  # a preposition's object: "in [the Topstone]."
        elif det and nothing_left:  # a verb's: "upgraded [an X1] yesterday" -> "upgraded one yesterday"
            word = ("them" if _plural(text[start:end]) else "it") if the else "one"
            before = before[: det.start()] + _pronoun(before[det.start()], word) + " "
        elif article and (agreed := _agreeing(after)):
            before = before[: article.start()] + (agreed.capitalize() if article.group(1)[0] == "A" else agreed) + " "
        if _BEFORE_NAME.search(before) and _LOOSE_AFTER.match(after):  # "with [X]", or "with a [X]" once "a" went
            before = _BEFORE_NAME.sub("", before)
        out.append(before)
        last = end
    out.append(text[last:])
    return _tidy("".join(out))


def _verb_next(after: str) -> bool:
    """Whether ``after`` opens with a verb: an auxiliary or a past ("was trued", "rang")."""
    word = re.match(r"\s*([A-Za-z]+)", after)
    return word is not None and (word.group(1).casefold() in _AUXILIARIES or is_past(word.group(1)))


def _plural(name: str) -> bool:
    """Whether a name reads as a plural ("the Hendersons" -> "them")."""
    last = name.split()[-1] if name.split() else ""
    return last.endswith("s") and not last.endswith(("ss", "'s", "’s", "us", "is"))


def _pronoun(first: str, word: str) -> str:
    """``word`` ("it", "one") capitalised as the article it stands for (``first``) was."""
    return word.capitalize() if first.isupper() else word


def _agreeing(after: str) -> str | None:
    """The article the word starting ``after`` takes, by its first letter or, for an acronym,
    the letter's name ("a QA pass", "an SQL dump"); None where the letter does not tell ("an
    hour", "a user")."""
    word = re.match(r"\s*([A-Za-z])([A-Za-z0-9]?)", after)
    if word is None:
        return None
    first, acronym = word.group(1), word.group(1).isupper() and not word.group(2).islower()  # "QA", "X-ray"
    if acronym:
        return "an" if first in "AEFHILMNORSX" else "a"
    return None if first.lower() in "hu" else "an" if first.lower() in "aeio" else "a"


def _tidy(text: str) -> str:
    text = re.sub(r"\s*\(\s*\)|\s*\[\s*\]", "", text)  # brackets whose content was all names: "BB ()"
    return re.sub(r"\s+([,.;:!?])", r"\1", re.sub(r"\s{2,}", " ", text)).strip(" :;,-")


def cut(text: str, spans: list[tuple[int, int]], readable: bool) -> str | None:
    """``text`` without ``spans`` if two words are left: readable if asked and it leaves two
    besides articles, else the plain cut (readable: without a dangling article if two words
    are left then); None if none leaves two."""
    plain = _without(text, spans, readable=False)
    for left in (_without(text, spans), _tidy(_DANGLING_ARTICLE.sub(r"\1", plain))) if readable else ():
        if len([w for w in left.split() if w.strip(".,;:!?").lower() not in _ARTICLES]) >= 2:
            return left
    return plain if len(plain.split()) >= 2 else None


_ARTICLES = frozenset({"a", "an", "the"})
_DANGLING_ARTICLE = re.compile(r"\s+(?:a|an|the)\b(\s*(?:[,.;:!?]|$))", re.I)
