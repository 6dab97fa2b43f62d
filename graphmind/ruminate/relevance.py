"""Which memories the tools returned earn a place in the Context Object, and why (pure).

A memory is kept when
- it is **on topic**: it shares at least ``MIN_SHARED`` content-word stems with the stimulus
  (all of them when the stimulus has fewer), not counting the names of the sender, the mind,
  its partners or the speakers of its conversations (a name says who, not what), nor who said
  it ("says", "told": ``_REPORTING``);
- or it is **linked** by one graph edge to an on-topic memory (the strategy that APPLIES_TO
  the project the stimulus names, the feeling FELT_DURING the conversation about it), unless
  it is a Partnership or Identity (everyone is linked to their partner); a SUBSUMES edge only
  from the member up (``UPWARD_ONLY``: the principle over an on-topic pattern, not every other
  pattern under an on-topic principle);
- or it is **two or three hops** (``MAX_HOPS``) from an on-topic memory, every edge after the
  first one of ``DEPTH_RELS`` (the typed edges that carry meaning: the strategy LEARNED_FROM the
  failure ATTEMPTED_ON the project; the remedy that ADDRESSES the cold room that CAUSED the slow
  culture that CAUSED the problem), never through a Partnership or Identity;
- or it is the **sender's partnership** (who is speaking), kept for the identity only;
- or it is a conversation **turn the sender spoke** that shares with the stimulus one of its most
  specific stems (``specific``: of the stems the memories read share with it, those the fewest
  hold): who is speaking is the second sign that it is on the topic ("Are you still waiting on
  anything from customs?" and the sender's own "the pads are held at customs"; not their "the
  wheels for the school checks" for a stimulus about wheels going out of true, where "wheels"
  is in every memory read and "true" in two). A turn is never linked to the topic
  through who spoke it or the session it is in (``SPOKEN_BY``, ``IN_SESSION``: everything a
  person said hangs off them); through ``NEXT`` it is (the reply to an on-topic turn).

When nothing is on topic, the sender's latest conversation is kept as **weak**: the Context
Object may say what the sender last spoke about, never that the stimulus continues it.
Everything else is dropped, and the trace says why for every memory: the reason states the rule
applied ("shares only 'chiller' with the stimulus", never "shares nothing" when a word is shared).

Against what the exploration established (``established.py``, the Dreamer's findings): a
memory a finding dismissed as not relevant here is dropped (the sender's partnership aside),
and each finding supporting a kept memory adds ``SUPPORT`` to its score. The score (shared
stems, or ``1 / hops`` for a linked memory, plus support) orders each section's memories; the
reason names the steps that established it.

Calibration: ``MIN_SHARED`` = 2 stems, cross-validated on the four labelled minds of
tests/data/ruminate/ (an apiary, a community theatre, a rural vet clinic, a community choir;
each with two partners, look-alike names, an unrelated incident, a strategy two typed hops from
the stimulus's project, a weak or name-only and an off-topic stimulus): ``python
bench/ruminate_quality.py --calibrate`` fits the value on three minds and scores the fourth,
then fits on two and scores the other two. Mean F1 per mind (apiary, theatre, clinic, choir):
1 stem 1.00 / 0.67 / 0.67 / 0.85 (one shared common word such as "hall" or "tenor" pulls
distractors in), 2 stems 1.00 on all four, 3 stems 1.00 on all four; every held-out fold picks
2 (ties go to the looser value, which keeps more of a short stimulus) and scores F1 1.00, both
half/half splits too. The choir was added after the value was set, as a held-out check. Four
small minds written by two sessions are still a thin calibration.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from graphmind.prompts._models import MemoryItem
from graphmind.ruminate.established import Established
from graphmind.text import STOPWORDS, content_terms, stem, stems

MIN_SHARED = 2
MAX_HOPS = 3
SUPPORT = 1.0
"""What one supporting finding adds to a memory's score (a shared stem's worth)."""
DEPTH_RELS = (
    "APPLIES_TO",
    "LEARNED_FROM",
    "CAUSED",
    "CAUSED_BY",
    "USED_IN",
    "SIMILAR_TO",
    "FELT_DURING",
    "ATTEMPTED_ON",
    "TRIED_IN",
    "RESOLVED_BY",
    "ADDRESSES",
    "TRIGGERED_BY",
)
"""The edges a second hop may follow: what applies to, was learned from, caused, or was tried
on what the first hop reached (not INVOLVES, ABOUT, REFERENCES: they fan out to whatever else
touches the same person, topic or file)."""
_NOT_TOPICAL_BY_LINK = frozenset({"Partnership", "Identity"})
UPWARD_ONLY = frozenset({"SUBSUMES"})
"""Edges followed from the member up only: the principle over an on-topic pattern is its
context, but a principle on the topic does not make every pattern it subsumes so (a trial's
bleed pattern was kept for a wobbling wheel through their shared ladder node)."""
WHO_AND_WHEN = frozenset({"SPOKEN_BY", "IN_SESSION"})
"""Edges that say who spoke a turn or in which session: they link a turn to everything else its
speaker said, never to what it is about, so relevance never follows them."""


@dataclass(frozen=True)
class Link:
    source: str
    rel: str
    target: str


@dataclass
class Selection:
    kept: list[MemoryItem] = field(default_factory=list)
    weak: list[str] = field(default_factory=list)
    """Ids of memories kept only to say what the sender last spoke about (not on topic)."""
    reasons: dict[str, str] = field(default_factory=dict)
    """Why each memory was kept or dropped ("kept: ...", "dropped: ...")."""
    topic_terms: list[str] = field(default_factory=list)
    """The stimulus's content words that no memory read holds (what memory knows nothing about)."""
    named_elsewhere: list[str] = field(default_factory=list)
    """The stimulus's content words that only memories dropped as off topic hold ("Kendal" in
    memories about other things at Kendal): memory names them, but says nothing to the point."""
    topical: set[str] = field(default_factory=set)
    """Ids of the memories on topic (shared stems)."""
    linked: set[str] = field(default_factory=set)
    """Ids of the memories kept for an edge (one, or up to ``MAX_HOPS`` with typed ones) to an on-topic one."""
    partner: str | None = None
    """The id of the sender's partnership, when it is among the memories."""
    scores: dict[str, float] = field(default_factory=dict)
    """Each kept memory's relevance score: shared stems (or 1/hops when linked) plus support."""
    dismissed: set[str] = field(default_factory=set)
    """Ids dropped because a finding of the exploration dismissed them."""


def select(
    memories: Sequence[MemoryItem],
    links: Iterable[Link],
    *,
    stimulus: str,
    sender: str | None,
    names: Iterable[str] = (),
    established: Established = Established(),
) -> Selection:
    """The memories to build the Context Object from, each with its reason and score."""
    people = {sender or "", *names} | {str(m.prop(k) or "") for m in memories for k in _NAMES.get(m.label, ())}
    name_stems = set().union(*(stems(p) for p in people if p)) if any(people) else set()
    wanted = topic_terms_of(stimulus) - name_stems
    chosen = Selection()
    shared: dict[str, set[str]] = {m.id: (topic_terms_of(_text(m)) - name_stems) & wanted for m in memories}
    needed = max(1, min(MIN_SHARED, len(wanted)))
    rare = specific(shared.values())
    topical = {
        i
        for i, s in shared.items()
        if len(s) >= needed and i not in established.dismissed  # one specific word: too little (docs)
    }
    links = list(links)
    partner = _partner(memories, sender)
    said = _sender_turns(memories, links, sender, partner)
    own_turns = {i for i in said if shared[i] & rare and i not in topical}
    linked = reach(topical, links, {m.id: m.label for m in memories}, blocked=set(established.dismissed))
    latest = _latest_conversation(memories, partner, links) if partner and not topical else None
    chosen.topical, chosen.linked = topical, set(linked)
    chosen.partner = partner.id if partner is not None else None
    labels = {m.id: m.label for m in memories}
    spoken_for = {  # an experience whose pattern is kept here and says all it shares with the stimulus
        link.source: link.target
        for link in links
        if link.rel == "EXEMPLIFIES"
        and labels.get(link.source) == "Experience"
        and labels.get(link.target) == "Pattern"
        and (link.target in topical or link.target in linked)
        and link.target not in established.dismissed
        and shared.get(link.source, set()) <= shared.get(link.target, set())
    }
    for m in memories:
        if m.id in spoken_for:
            chosen.reasons[m.id] = f"dropped: pattern {spoken_for[m.id]} stands for it"
            continue
        finding = established.dismissed.get(m.id)
        if finding is not None and (partner is None or m.id != partner.id):
            chosen.reasons[m.id] = f"dropped: the exploration set it aside ({finding})"
            chosen.dismissed.add(m.id)
            continue
        if m.id in topical:
            chosen.reasons[m.id] = "kept: shares " + ", ".join(sorted(shared[m.id])) + " with the stimulus"
        elif m.id in linked:
            chosen.reasons[m.id] = f"kept: linked ({linked[m.id]}) to an on-topic memory"
        elif m.id in own_turns:
            chosen.reasons[m.id] = (
                f"kept: the sender's own turn, shares {_listed(shared[m.id], stimulus)} with the stimulus"
            )
        elif partner is not None and m.id == partner.id:
            chosen.reasons[m.id] = "kept: the sender's partnership (who is speaking)"
        elif latest is not None and m.id == latest.id:
            chosen.reasons[m.id] = "kept as weak: the sender's last conversation, not about this stimulus"
            chosen.weak.append(m.id)
        else:
            chosen.reasons[m.id] = _dropped(shared[m.id], needed, stimulus)
            continue
        chosen.kept.append(m)
        backing = established.supported.get(m.id, ())
        hops = linked[m.id].count(",") + 1 if m.id in linked else 0
        base = len(shared[m.id]) if m.id in topical or m.id in own_turns else 1 / hops if hops else 0.0
        chosen.scores[m.id] = round(base + SUPPORT * len(backing), 3)
        if backing:
            chosen.reasons[m.id] += "; established by " + ", ".join(backing)
    known = set().union(*(shared[i] for i in [*(m.id for m in chosen.kept), *spoken_for]))  # what its pattern tells
    held = set().union(*shared.values())  # what a memory read holds, kept or not
    unknown = [w for w in dict.fromkeys(content_terms(stimulus)) if stem(w) in wanted and stem(w) not in known]
    chosen.topic_terms = [w for w in unknown if stem(w) not in held][:4]
    chosen.named_elsewhere = [w for w in unknown if stem(w) in held][:4]
    return chosen


SPECIFIC_SHARE = 4
"""A stem is specific when at most 1 in this many of the memories read hold it (at least one)."""


def specific(shared: Iterable[set[str]]) -> set[str]:
    """The stimulus's specific stems: of those the memories read share with it, the ones few of
    them hold (``SPECIFIC_SHARE``), never one every memory read holds ("chiller" beside "tanks" in
    a brewery's log). A threshold, not the fewest: the fewest would make a stem every memory
    holds specific when it is the only one shared, and an unrelated memory more would take the
    topic word's place. Pure: ``shared`` is what each memory read shares with the stimulus."""
    shared = list(shared)
    held = Counter(stem for each in shared for stem in each)
    most = max(1, len(shared) // SPECIFIC_SHARE)
    return {stem for stem, count in held.items() if count <= most and not (len(shared) > 1 and count == len(shared))}


def reach(
    topical: set[str], links: Sequence[Link], labels: dict[str, str], blocked: set[str] | None = None
) -> dict[str, str]:
    """The memories within ``MAX_HOPS`` edges of an on-topic one (the hops after the
    first along ``DEPTH_RELS`` only), each with the path that reached it; never through ``blocked``."""
    linked: dict[str, str] = {}
    frontier = set(topical)
    for hop in range(1, MAX_HOPS + 1):
        reached: set[str] = set()
        for link in links:
            if (hop > 1 and link.rel not in DEPTH_RELS) or link.rel in WHO_AND_WHEN:
                continue
            for near, far in ((link.source, link.target), (link.target, link.source)):
                if near not in frontier or far in topical or far in linked:
                    continue
                if link.rel in UPWARD_ONLY and near == link.source:
                    continue  # a principle's other members are other techniques, not this topic
                if labels.get(far) in _NOT_TOPICAL_BY_LINK or far in (blocked or ()):
                    continue
                linked[far] = f"{link.rel} {near}" + (f", {linked[near]}" if near in linked else "")
                reached.add(far)
        frontier = reached
    return linked


_CODE = re.compile(r"(?<![\w-])[A-Z]{2,3}(?![\w-])")
_NOT_CODES = frozenset({"am", "pm", "ok", "id", "tv"})
_REPORTING = frozenset(stems("say says said saying tell tells told telling mention mentions mentioned"))
"""Who said what is not what it is about: "Priya says her bike is skipping" shares nothing with
"Rosa says the headset knocks" but "bike" (a trial kept it for sharing "bike, says")."""


def topic_terms_of(text: str) -> set[str]:
    """The stems of ``text``'s content words, and its codes: a word of 2-3 capitals ("AA" rings,
    a "DLQ"), too short for a content word but what the text is about ("We're out of AA rings
    again" shares only "ring" with every memory of a ringing station's log)."""
    return (stems(text) - _REPORTING) | (
        {c.lower() for c in _CODE.findall(text)} - _NOT_CODES - STOPWORDS
    )  # "THE" shouted


_NAMES = {"Partnership": ("partner_name",), "Person": ("name",), "Turn": ("speaker",)}
"""The properties that name someone: a name says who, not what (left out of what is shared)."""
_NOT_CONTENT = frozenset({"session_id"})
"""Properties that name a conversation, not what it is about ("conv-tom-chiller" says nothing
a turn of it says)."""


def _text(m: MemoryItem) -> str:
    values = [v for k, v in m.properties.items() if isinstance(v, str | list) and k not in _NOT_CONTENT]
    return " ".join([m.text, *(" ".join(v) if isinstance(v, list) else v for v in values)])


def _dropped(shared: set[str], needed: int, stimulus: str) -> str:
    """The reason a memory neither on topic nor linked is dropped, as the rule was applied."""
    if not shared:
        return "dropped: shares nothing with the stimulus and is linked to nothing that does"
    return (
        f"dropped: shares only {_listed(shared, stimulus)} with the stimulus (on topic takes {needed} "
        "shared words) and is linked to nothing on topic"
    )


def _listed(shared: set[str], stimulus: str) -> str:
    """The stimulus's own words behind ``shared`` stems, quoted, in the stimulus's order
    ("'chiller', 'tanks'"); a code as written."""
    by_stem: dict[str, str] = {}
    for word in content_terms(stimulus):
        by_stem.setdefault(stem(word), word)
    ordered = [by_stem[s] for s in by_stem if s in shared] + sorted(s for s in shared if s not in by_stem)
    return ", ".join(f"'{w}'" for w in ordered)


def _sender_turns(
    memories: Sequence[MemoryItem], links: Iterable[Link], sender: str | None, partner: MemoryItem | None
) -> set[str]:
    """The ids of the turns the sender spoke: their speaker is the sender (any case), or they are
    SPOKEN_BY the sender's partnership."""
    if not sender:
        return set()
    turns = {m.id for m in memories if m.label == "Turn"}
    by_name = {m.id for m in memories if m.id in turns and str(m.prop("speaker") or "").lower() == sender.lower()}
    by_edge = {l.source for l in links if partner is not None and l.rel == "SPOKEN_BY" and l.target == partner.id}
    return by_name | (by_edge & turns)


def _partner(memories: Sequence[MemoryItem], sender: str | None) -> MemoryItem | None:
    if not sender:
        return None
    return next(
        (
            m
            for m in memories
            if m.label == "Partnership" and str(m.prop("partner_name") or "").lower() == sender.lower()
        ),
        None,
    )


def _latest_conversation(
    memories: Sequence[MemoryItem], partner: MemoryItem, links: Iterable[Link]
) -> MemoryItem | None:
    linked = {l.source for l in links if l.target == partner.id} | {l.target for l in links if l.source == partner.id}
    talks = [m for m in memories if m.label == "Conversation_Memory" and m.id in linked]
    return max(talks, key=lambda m: str(m.prop("timestamp") or ""), default=None)
