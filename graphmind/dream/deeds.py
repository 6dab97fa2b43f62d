"""What was done, told apart from the state it was done in: a work-log entry often opens with
the situation ("Boiler locking out on ignition.") and says what was done in a later sentence
("Cleaned the flame sensor, ran three cycles."). The offline rules take a pattern's condition
from the first and its action from the second (``state_then_deed``), where they took both from
the opening, so a technique was named and acted on by its symptom.

A sentence tells a deed (``opens_with_deed``) when, after an optional subject and adverbs
("I", "We then"), it opens with a verb in the past ("Raised", "Cut", "Bled") followed by what a
verb takes next: an article, a pronoun, a particle, a preposition, a number, a comma, a
capitalised object ("Cut it back", "Set the gap to 2 mm", "Trued to 0.5 mm", "Added Janet");
or by the end of the clause. A verb that reports, perceives or finds ("said", "saw", "found")
tells the situation. A participle used as an adjective comes before a noun instead ("Cracked
glaze on the jugs", "Bent hanger", "Scorched and blistered paint"), so a symptom is not read as
a deed. A capitalised subject before a past verb ("Lotte rewired", "Dr Ferreira splinted") is
someone who acted only when an object follows the verb: a thing that acts alone takes none
("Compressor stopped twice", "Courier turned up late"). A later clause can tell the deed ("The
gauge read 4 bar so we bled the radiators"), as can verbs in a row ("Swapped hose, clamped") and
"had to" ("Had to lift the floor panel"). Without a subject and a past verb the sentence is a
state. Pure; no list of any domain's words. ``bench/deed_quality.py`` scores it on the labelled
entries of ``tests/data/deeds`` (its README; figures in bench/RESULTS.md).
"""

from __future__ import annotations

import re
from functools import lru_cache

from graphmind.text import sentences

SUBJECTS = frozenset("i we he she they you".split())
TITLES = frozenset("dr mr mrs ms mx miss prof sir dame".split())
"""Words before a person's name that go with it ("Dr Hale"; also ``entities.name_spans``)."""
OBJECTS = frozenset(
    "the a an it its them him her his their our my your this that these those both all each every some".split()
)
"""What a named subject's deed takes next ("Lotte rewired the transformer", "Sam lifted it"):
an object, not an adverb or a preposition, as a thing that acts alone does ("Compressor stopped
twice", "Courier turned up late", "Frost set in at 4") tells the situation."""
ADVERBS = frozenset("then finally also just first eventually quickly carefully gently later again".split())
SIMPLE_PAST = frozenset(
    """
    ate began bit blew bore broke chose did drank drew drove flew forbade forgave forgot froze
    gave grew hid knew overcame overtook ran rang rode rose sang sank saw shook slew sprang
    stole strode strove swam swore took tore trod undertook underwent went woke wore wove
    withdrew wrote
    """.split()
)
"""Verbs whose simple past is no participle ("took", "gave"): never an adjective before a noun,
so a deed whatever follows. A general list of English, no domain's."""
PAST_OR_PARTICIPLE = frozenset(
    """
    bent bled bound bought brought built caught clung crept cut dealt dug fed fit fled flung
    fought found ground held hit hung kept knelt laid lay led leant left lent let lit lost made
    meant met paid put quit read rebuilt redid refit reran reset rewound rewrote sat sent set
    shed shone shot shut slid slung sold sought spent spilt split spread spun stood stuck
    stung struck swept swung taught told thrust undid upset wept won wound wrung
    """.split()
)
"""Irregular pasts that are participles too ("cut", "set", "bent"): a deed only by what follows
(``NEXT_AFTER_VERB``), as "Bent hanger" is a state."""
REPORTING = frozenset(
    "said told asked thought felt seemed looked sounded appeared noticed saw found heard spotted smelt smelled had got".split()
)
"""Pasts that report, perceive, find or have rather than act ("We found diesel in the bilge":
the situation, found)."""
NOT_PAST = frozenset(
    """
    embed hundred naked speed sacred wicked tired bleed breed proceed succeed exceed indeed
    """.split()
)
"""Words ending in "ed" that are no past tense, or no verb of a deed."""
NEXT_AFTER_VERB = frozenset(
    """
    the a an it its them him her his their our my your this that these those both all each
    every some one two three four five six up out in off on back down over through into onto
    to from with at for by away apart around together again and so about
    """.split()
)
"""What follows a verb and never an adjective before its noun (see the module's docstring);
"and" or a comma joins verbs ("Lanced and flushed it", "Sedated, passed a catheter"). A
capitalised word after the verb is its object too ("Added Janet to the group")."""
ATTEMPTS = frozenset("tried attempted".split())
"""A deed that opens with these is an attempt: a later deed is what was done."""
_WORD = re.compile(r"[^\W\d_](?:[^\W_]|['’-])*|\d")
_CLAUSE = re.compile(r"[,;:]|(?<=\s)(?:so|then)(?=\s)", re.I)
"""Where a later clause of a sentence starts: a comma, semicolon or colon, or "so"/"then"."""
NOT_NAMES = frozenset(
    "it this that these those there here one both all each every some nothing everything someone "
    "somebody nobody everyone another other which what who".split()
)
"""Capitalised words before a verb that name no one who acted ("It lost its prime")."""


def opens_with_deed(sentence: str, *, opening: bool = False) -> bool:
    """Whether ``sentence`` says what was done (see the module's docstring), in its first clause
    or in a later one ("The gauge read 4 bar so we bled it", "Swapped hose, clamped").
    ``opening``: the sentence opens its entry, where a capital tells no name ("Pump lost its
    prime" states the situation), so only a later clause's capitalised subject is someone."""
    first, *later = [_unjoined(c) for c in _CLAUSE.split(sentence)]
    subject, words = _verb_first(first, names=not opening)
    if _clause_deed(first, subject, words):
        return True
    doer = subject == "pronoun" or (subject == "" and bool(words) and (words[0] in REPORTING or _past(words[0])))
    for clause in later:  # one without its own subject goes on with the first clause's
        own, clause_words = _verb_first(clause, names=True)
        if (own or doer) and len(_WORD.findall(clause)) > 1 and _clause_deed(clause, own, clause_words):
            return True
    single = [c for c in later if len(_WORD.findall(c)) == 1 and _past(c.strip(" .!?").casefold())]
    return doer and bool(single) and _lone_past(first)  # verbs in a row: "Swapped hose, clamped"


def _unjoined(clause: str) -> str:
    """``clause`` without the "and", "so" or "then" that joined it to the one before."""
    clause = clause.strip()
    while (head := clause.split(maxsplit=1)) and head[0].casefold() in {"and", "so", "then"}:
        clause = head[1] if len(head) > 1 else ""
    return clause


def _clause_deed(clause: str, subject: str, words: list[str]) -> bool:
    """Whether a clause (its subject and words from ``_verb_first``) tells a deed."""
    if subject == "name":  # an object after the verb, or after a second verb ("Sam checked and reset both")
        if not words or not _past(words[0]):
            return False
        following = _WORD.findall(_after(clause, words[0]))[:3]
        if following[:1] == ["and"] and len(following) > 1 and _past(following[1].casefold()):
            following = following[2:]
        return bool(following) and following[0].casefold() in OBJECTS
    if words[:2] == ["had", "to"]:  # "Had to lift the floor panel": what was done
        return True
    if not words or words[0] in REPORTING:
        return False
    verb = _unprefixed(words[0])
    if verb in SIMPLE_PAST or verb in ATTEMPTS:  # an attempt is a deed, if one that failed
        return True
    if verb not in PAST_OR_PARTICIPLE and not _regular_past(verb):
        return False
    after = _after(clause, words[0])
    if subject or _takes_object(after):
        return True
    following = _WORD.findall(after)[:2]
    if len(following) == 2 and following[0].casefold() == "and" and _past(following[1].casefold()):
        rest = _after(after, following[1])  # "Lanced and flushed it", not "Scorched and blistered paint"
        return _takes_object(rest) or rest.split(maxsplit=1)[:1] == ["and"]  # a third verb
    return False


def _takes_object(after: str) -> bool:
    """Whether what follows a past verb is what a verb takes (see the module's docstring): the
    end, a comma, a number, a word of ``NEXT_AFTER_VERB`` but "and", or a capitalised object."""
    after = after.lstrip(".!?…\"'”’ ")
    if not after or after[0] in ",;" or after[0].isdigit():
        return True
    following = after.split()[0].strip(",;:.!?")
    return following.casefold() in NEXT_AFTER_VERB - {"and"} or following[:1].isupper()  # "Added Janet"


def _verb_first(clause: str, names: bool) -> tuple[str, list[str]]:
    """(what opens ``clause`` before its verb: "pronoun", "name" (with ``names``: a capitalised
    word, after a title or not, before a past verb: "Lotte", "Dr Ferreira") or ""; its first
    words case-folded from the one after that subject and its adverbs: the verb's place)."""
    written = _WORD.findall(clause[:200])[:7]
    words = [w.casefold() for w in written]
    subject = ""
    if words and words[0] in SUBJECTS:
        subject, words = "pronoun", words[1:]
    elif names and words and words[0] not in NOT_NAMES:
        skip = 2 if len(written) > 2 and words[0] in TITLES and written[1][0].isupper() else 1
        if len(words) > skip and written[skip - 1][0].isupper() and not _past(words[0]) and _past(words[skip]):
            subject, words = "name", words[skip:]
    while words and words[0] in ADVERBS and len(words) > 1:
        words = words[1:]
    return subject, words


def _past(word: str) -> bool:
    """A past tense that can tell a deed (not one that reports, finds or has)."""
    bare = _unprefixed(word)
    return word not in REPORTING and (bare in SIMPLE_PAST or bare in PAST_OR_PARTICIPLE or _regular_past(bare))


def is_past(word: str) -> bool:
    """Whether ``word`` (any case) reads as a verb in the past, one that reports or has too
    ("trued", "rang", "had"); ``readable_cut`` asks it of what follows a subject it cut."""
    folded = word.casefold()
    return folded in REPORTING or _past(folded)


def _lone_past(clause: str) -> bool:
    """A clause of a past verb and at most one more word ("tensioned", "checked charge")."""
    words = _WORD.findall(clause)
    return 0 < len(words) <= 2 and _past(words[0].casefold())


def _unprefixed(word: str) -> str:
    """``word`` without a "re-"/"un-" prefix on an irregular past ("re-drove", "re-set")."""
    bare = re.sub(r"^(?:re|un|over|under|out)-?", "", word)
    return bare if bare != word and (bare in SIMPLE_PAST or bare in PAST_OR_PARTICIPLE) else word


def _regular_past(word: str) -> bool:
    return len(word) >= 5 and word.endswith("ed") and word not in NOT_PAST


def _after(sentence: str, word: str) -> str:
    """What ``sentence`` says after the first whole word ``word`` (case aside), stripped."""
    found = re.search(rf"(?<![^\W_]){re.escape(word)}(?![^\W_])", sentence, re.I)
    return sentence[found.end() :].strip() if found else ""


def _attempt(sentence: str) -> bool:
    """A deed that was tried ("Tried a reset"), or that says it did not work ("Reseated the lamp,
    still flickering", "Bled it twice, no luck")."""
    words = _verb_first(sentence, names=False)[1]
    if (words and words[0] in ATTEMPTS) or _NOTHING.search(sentence):
        return True
    return any(not _STILL_WELL.match(sentence, m.end()) for m in _FAILED.finditer(sentence))


_FAILED = re.compile(
    r"\b(?:still|no (?:change|better|difference|luck|joy|good|improvement|effect)|same (?:problem|thing|result|again)"
    r"|did(?:n't|n’t| not) (?:help|work|fix|solve|do)|made (?:it|things) worse|to no avail|no use)\b",
    re.I,
)
"""How a log says a deed did not work: general English, no domain's words."""
_STILL_WELL = re.compile(
    r"\s+(?:fine|good|ok|okay|well|working|holding|firm|dry|tight|clear|clean|sound|there|in)\b", re.I
)
""""still" before a good state ("still holding", "still fine") says it worked."""
_NOTHING = re.compile(r"[,;:\-–—]\s*(?:nothing|same)\W*$", re.I)
"""A last clause of one word that says it did not work ("Reseated it; nothing.", "- same.")."""


@lru_cache(maxsize=4096)  # the offline rules ask it of one text for its condition, action and name
def state_then_deed(description: str) -> tuple[str, str] | None:
    """(the opening sentence, the first later sentence that tells a deed, not an attempt where
    one follows it) when the opening tells none, or only an attempt that a later deed follows
    ("Reset the RCD, still tripping. Replaced the element."); None when the opening tells what
    was done, or no later sentence does."""
    found = sentences(description)
    if len(found) < 2:
        return None
    deeds = [s for s in found[1:] if opens_with_deed(s)]
    done = [s for s in deeds if not _attempt(s)]  # what worked, after what was tried
    if opens_with_deed(found[0], opening=True):
        return (found[0], done[0]) if done and _attempt(found[0]) else None
    return (found[0], (done or deeds)[0]) if deeds else None
