"""The context-object spec's seven section templates, filled from the memories given.

Each section picks the memories of its labels that share most terms with the stimulus (the
partnership of the sender first) and fills the spec's template with their properties; a
value the memory lacks is left out, never guessed. A section with no data says so in one
sentence (``NO_DATA``). This is the grounded composer: the offline LLM answers
``context.compose`` with it, and the Context Object falls back to it when an LLM's draft fails
the grounding check.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from graphmind.context import conclusions
from graphmind.context.history import date_text as _date
from graphmind.context.history import turn_lines
from graphmind.prompts._models import NODE_TYPES, MemoryItem, PropertyValue
from graphmind.prompts.context import ContextInput, ContextSections
from graphmind.recall.validity import is_valid
from graphmind.text import for_duration, join_names, rank_by_overlap

TEMPLATE_WORDS = frozenset(
    """
partner shared history includes communication style trust level high medium says continues
discussion about previous exchange messages message points before technical context status
recurrence takeaways outcome past approaches didn work approach success rate applicability
steps what feel situation counterbalance trigger component issue type description related
files dependencies complexity deadline impact violated focused partnership identity found
data strategy emotional emotions constraints conversations failures code someone with this
constraint conversation rate not files consolidated patterns captured experiences
comes come only other matters
""".split()
)

NO_DATA = {
    "identity": "No partnership data found.",
    "relevant_history": "No conversation history found in the graph.",
    "strategic_direction": "No strategy data found in the graph.",
    "emotional_resonance": "No emotional data found in the graph.",
    "technical_context": "No technical data found in the graph.",
    "constraints": "No constraints found in the graph.",
}
"""The one sentence a section says when rumination found nothing for it (Current Situation
always quotes the stimulus)."""


def compose(inputs: ContextInput) -> ContextSections:
    """The seven sections from the spec's templates and the memories in ``inputs``."""
    focus = f"{inputs.stimulus} {inputs.sender or ''}"
    by_label = {label: _ranked(inputs.memories, label, focus, inputs.scores) for label in _LABELS}
    partner = _partner(by_label["Partnership"], inputs.sender)
    cited: list[str] = []

    def use(items: list[MemoryItem]) -> list[MemoryItem]:
        cited.extend(m.id for m in items if m.id not in cited)
        return items

    weak = [m for m in inputs.memories if m.id in inputs.weak_ids]
    by_label["Conversation_Memory"] = [m for m in by_label["Conversation_Memory"] if m.id not in inputs.weak_ids]
    failures = by_label["Failed_Attempt"][:2]
    sections = dict(
        identity=_identity(inputs.identity, use([partner] if partner else [])),
        current_situation=_situation(
            inputs, use(by_label["Conversation_Memory"][:1]), use(by_label["Technical_Context"][:1]), use(weak[:1])
        ),
        relevant_history=_history(
            use(by_label["Conversation_Memory"][:3]),
            use(failures),
            use(_ranked(inputs.memories, "Turn", focus, inputs.scores)[:MAX_TURNS]),
        ),
        strategic_direction=_strategy(
            use(_scored(by_label["Strategy_Pattern"], inputs.scores, MAX_STRATEGIES)),
            failures,
            use(_consolidated(inputs.memories, focus)[:3]),
            use(_captured(inputs.memories, focus)[:MAX_CAPTURED]),
        ),
        emotional_resonance=_emotion(use(_scored(by_label["Emotional_State"], inputs.scores, MAX_EMOTIONS))),
        technical_context=_technical(
            use(_scored(by_label["Technical_Context"], inputs.scores, MAX_TECHNICAL)),
            use(by_label["Code_Reference"][:5]),
            inputs,
        ),
        constraints=_constraints(use(by_label["Constraint"][:3])),
    )
    sections = conclusions.add(sections, inputs, TEMPLATE_WORDS)
    return ContextSections(**sections, cited_ids=cited)


MAX_STRATEGIES = 3
MAX_EMOTIONS = 2
MAX_TECHNICAL = 3
"""A section shows up to this many strategies / emotions / issues, the most relevant first: the spec's
template shows one, but a mind may hold several that relevance scored (a strategy two typed
hops away beside one on topic), and dropping them loses what would help most. Beyond the first,
only memories with a positive relevance score (``ContextInput.scores``) are shown."""
MAX_CAPTURED = 3
"""Strategic Direction lists up to this many captured experiences."""
MAX_TURNS = 4
"""Relevant History quotes up to this many turns of recorded conversations, the most relevant
(the sender's own on the topic, those matching the stimulus): the spec gives the section 300-500
tokens, and each turn is cut at ``history.TURN_CHARS`` characters."""
CONSOLIDATED_LABELS = ("Pattern", "Abstraction", "Crystal")
_LABELS = NODE_TYPES


def _ranked(memories: list[MemoryItem], label: str, focus: str, scores: dict[str, float]) -> list[MemoryItem]:
    """The memories of ``label``, the highest relevance score first (what the exploration
    established counts in it), then the most terms shared with ``focus``."""
    items = [m for m in memories if m.label == label]
    order = {i: rank for rank, i in enumerate(rank_by_overlap([m.text for m in items], focus))}
    return [items[i] for i in sorted(order, key=lambda i: (-scores.get(items[i].id, 0.0), order[i]))]


def _scored(items: list[MemoryItem], scores: dict[str, float], limit: int) -> list[MemoryItem]:
    return items[:1] + [m for m in items[1:limit] if scores.get(m.id, 0.0) > 0]


def _partner(partnerships: list[MemoryItem], sender: str | None) -> MemoryItem | None:
    for item in partnerships:
        if sender and str(item.prop("partner_name") or "").lower() == sender.lower():
            return item
    return partnerships[0] if partnerships else None


def _s(item: MemoryItem, name: str) -> str:
    value = item.prop(name)
    if value is None or value == [] or value == "":
        return ""
    return " and ".join(map(str, value)) if isinstance(value, list) else str(value)


def _list(item: MemoryItem, name: str) -> list[str]:
    value: PropertyValue = item.prop(name)
    if isinstance(value, list):
        return [str(v) for v in value]
    return [str(value)] if value not in (None, "") else []


def _suffix(template: str, value: str) -> str:
    return template.format(value) if value else ""


def _lines(*lines: str) -> str:
    return "\n".join(line for line in lines if line is not None).strip()


def _identity(identity: MemoryItem | None, partners: list[MemoryItem]) -> str:
    lines = []
    if identity:
        who = _s(identity, "name") or identity.text
        role = _s(identity, "role")
        focus = _s(identity, "focus_area")
        lines.append(who + (f", {role}" if role else "") + (f" focused on {focus}" if focus else "") + ".")
    if not partners:
        return _lines(*lines, NO_DATA["identity"])
    p = partners[0]
    name = _s(p, "partner_name") or p.id
    sentence = f"Partner to {name}" + for_duration(_s(p, "duration"))
    if _s(p, "shared_history"):
        sentence += f", shared history includes {join_names(_list(p, 'shared_history'))}"
    if lines:
        lines[-1] += " " + sentence + "."
    else:
        lines.append(sentence + ".")
    lines.append("")
    if _s(p, "communication_style"):
        lines.append(f"Communication style with {name}: {_s(p, 'communication_style')}")
    trust = p.prop("trust_level")
    if isinstance(trust, int | float):
        level = "High" if trust >= 0.7 else "Medium" if trust >= 0.4 else "Low"
        lines.append(f"Trust level: {level} ({trust:g}/1.0)")
    return _lines(*lines)


def unknown_note(unknown: Sequence[str], elsewhere: Sequence[str]) -> str:
    """What memory holds nothing about, and what it names only in memories about other matters
    ("nothing in memory about catering; kendal comes up only in memories about other matters")."""
    parts = [f"nothing in memory about {', '.join(unknown)}"] if unknown else []
    if elsewhere:
        verb = "comes" if len(elsewhere) == 1 else "come"
        parts.append(f"{', '.join(elsewhere)} {verb} up only in memories about other matters")
    return "; ".join(parts)


def _situation(
    inputs: ContextInput, conversations: list[MemoryItem], technical: list[MemoryItem], weak: Sequence[MemoryItem] = ()
) -> str:
    lines = [f'{inputs.sender or "Someone"} says: "{inputs.stimulus}"', ""]
    unknown = unknown_note(inputs.unknown_terms, inputs.named_elsewhere)
    if weak and not conversations:  # a name-only match: what the sender last spoke about, no more
        w = weak[0]
        lines.append(
            f"{inputs.sender or 'The sender'} last spoke about {_s(w, 'topic') or w.text}"
            + (f"; {unknown}." if unknown else ".")
        )
        lines.append("")
    elif unknown and not conversations and not technical:
        lines += [unknown[0].upper() + unknown[1:] + ".", ""]
    if conversations:
        c = conversations[0]
        lines.append(f"This continues our discussion about {_s(c, 'topic') or c.text}.")
        exchange = ", ".join(
            x
            for x in (f"{_s(c, 'message_count')} messages" if _s(c, "message_count") else "", _s(c, "emotional_tone"))
            if x
        )
        if exchange:
            lines.append(f"Previous exchange: {exchange}.")
        if _list(c, "key_points"):
            lines.append("Key points from before:")
            lines += [f"- {point}" for point in _list(c, "key_points")]
        lines.append("")
    if technical:
        t = technical[0]
        desc = f" - {_s(t, 'description')}" if _s(t, "description") else ""
        lines.append(f"Technical context: {_s(t, 'component') or t.text}{desc}")
        if _s(t, "status"):
            lines.append(f"Status: {_s(t, 'status')}")
        count = t.prop("recurrence_count")
        if isinstance(count, int) and count > 1:
            lines.append(f"This is recurrence #{count}")
    return _lines(*lines)


def _history(conversations: list[MemoryItem], failures: list[MemoryItem], turns: Sequence[MemoryItem] = ()) -> str:
    lines: list[str] = []
    for c in conversations:
        when = _date(_s(c, "timestamp"))
        lines.append(f"{when}: {_s(c, 'topic') or c.text}" if when else (_s(c, "topic") or c.text))
        if _s(c, "message_count"):
            lines.append(f"- {_s(c, 'message_count')} message exchange")
        if _list(c, "key_points"):
            lines.append(f"- Key takeaways: {', '.join(_list(c, 'key_points'))}")
        if _s(c, "outcome"):
            lines.append(f"- Outcome: {_s(c, 'outcome')}")
        lines.append("")
    if turns:
        lines.append("Said in earlier conversations:")
        lines += turn_lines(turns)
        lines.append("")
    if failures:
        lines.append("Past approaches that didn't work:")
        lines += [f"- {_s(f, 'approach') or f.text}" + _suffix(": {}", _s(f, "why_failed")) for f in failures]
    return _lines(*lines) or NO_DATA["relevant_history"]


OUT_OF_USE = frozenset({"invalidated", "archived", "absorbed", "faded"})
"""A crystal's or thread's status that puts it out of use (retired and pruned: ``is_valid``)."""


def _consolidated(memories: list[MemoryItem], focus: str) -> list[MemoryItem]:
    """The night cycle's verified-or-unverified Patterns, Abstractions and Crystals that hold now
    (never an invalidated, retired or pruned one, nor one whose validity ended), those sharing
    most terms with the stimulus first."""
    now = datetime.now(UTC)
    items = [
        m
        for m in memories
        if m.label in CONSOLIDATED_LABELS and m.prop("status") not in OUT_OF_USE and is_valid(m.properties, now)
    ]
    return [items[i] for i in rank_by_overlap([m.text for m in items], focus)]


def _captured(memories: list[MemoryItem], focus: str) -> list[MemoryItem]:
    """The experiences relevance kept that still hold (those no pattern holds yet, and those
    that tell more than their pattern), those sharing most terms with the stimulus first."""
    now = datetime.now(UTC)
    items = [m for m in memories if m.label == "Experience" and is_valid(m.properties, now)]
    return [items[i] for i in rank_by_overlap([m.text for m in items], focus)]


def _strategy(
    strategies: list[MemoryItem],
    failures: list[MemoryItem],
    consolidated: Sequence[MemoryItem] = (),
    captured: Sequence[MemoryItem] = (),
) -> str:
    lines: list[str] = []
    for s in strategies:
        lines += [""] if lines else []
        lines.append(f"Approach: {_s(s, 'approach') or s.text}")
        if _percent(s.prop("success_rate")):
            lines.append(f"Success Rate: {_percent(s.prop('success_rate'))}")
        if _s(s, "applicability"):
            lines.append(f"Applicability: {_s(s, 'applicability')}")
        if _list(s, "steps"):
            lines += ["", "Steps:"] + [f"{i}. {step}" for i, step in enumerate(_list(s, "steps"), 1)]
    if consolidated:
        lines += ["", "Consolidated patterns:"]
        lines += [
            f"- {_s(c, 'description') or _s(c, 'generalization') or _s(c, 'insight') or c.text}"
            + _suffix(" (success rate {})", _percent(c.prop("success_rate")))
            for c in consolidated
        ]
    if captured:
        lines += ["", "Captured experiences:"]
        lines += [f"- {_s(c, 'description') or c.text}" + _suffix(" ({})", _s(c, "outcome")) for c in captured]
    if failures:
        lines += ["", "What NOT to do:"]
        lines += [f"- ❌ {_s(f, 'approach') or f.text}" + _suffix(" ({})", _s(f, "why_failed")) for f in failures]
    return _lines(*lines) or NO_DATA["strategic_direction"]


def _percent(value: PropertyValue) -> str:
    return f"{round(value * 100)}%" if isinstance(value, int | float) and not isinstance(value, bool) else ""


def _emotion(emotions: list[MemoryItem]) -> str:
    if not emotions:
        return NO_DATA["emotional_resonance"]
    lines: list[str] = []
    for n, e in enumerate(emotions):
        intensity = e.prop("intensity")
        level = f" ({intensity:g}/1.0)" if isinstance(intensity, int | float) else ""
        lines += [""] if lines else []
        lines.append(f"I {'also ' if n else ''}feel {_s(e, 'emotion') or e.text}{level} about this situation.")
        for title, name in (("Context", "context"), ("Counterbalance", "counterbalance"), ("Trigger", "trigger")):
            if _s(e, name):
                lines += ["", f"{title}: {_s(e, name)}"]
    return _lines(*lines)


def _technical(technical: list[MemoryItem], code: list[MemoryItem], inputs: ContextInput) -> str:
    lines: list[str] = []
    if technical:
        t = technical[0]
        for title, name in (
            ("Component", "component"),
            ("Issue Type", "issue_type"),
            ("Description", "description"),
            ("Status", "status"),
        ):
            if _s(t, name):
                lines.append(f"{title}: {_s(t, name)}")
        if not lines:
            lines.append(t.text)
        if technical[1:]:  # what relevance linked to it (a cause two hops back), most relevant first
            lines += ["", "Related Technical Context:"] + [
                f"- {_s(o, 'component') or o.id}: {_s(o, 'description') or o.text}" for o in technical[1:]
            ]
    if code:
        lines += ["", "Related Files:"] + [f"- {_s(c, 'file_path') or c.id}" for c in code]
    depends = dependencies([*technical, *code], inputs)[:5]
    if depends:
        count = len(depends)
        lines += ["", f"Dependencies: {count} file{'' if count == 1 else 's'}"]
        lines += [
            f"- {_s(c, 'file_path') or _s(c, 'component') or c.id}" + _suffix(" ({} complexity)", _s(c, "complexity"))
            for c in depends
        ]
    return _lines(*lines) or NO_DATA["technical_context"]


def dependencies(shown: list[MemoryItem], inputs: ContextInput) -> list[MemoryItem]:
    """What the shown technical memories depend on, by the graph's dependency edges (never by
    a property such as complexity): the edges' targets among the memories given, in edge order."""
    by_id = {m.id: m for m in inputs.memories}
    sources = {m.id for m in shown}
    targets = [d.target for d in inputs.dependencies if d.source in sources and d.target in by_id]
    return [by_id[i] for i in dict.fromkeys(targets)]


def _constraints(constraints: list[MemoryItem]) -> str:
    lines: list[str] = []
    for c in constraints:
        kind = _s(c, "constraint_type").upper() or "CONSTRAINT"
        lines.append(kind + (f" ({_s(c, 'severity')})" if _s(c, "severity") else ""))
        lines.append(f"- {_s(c, 'description') or c.text}")
        if _s(c, "deadline"):
            lines.append(f"- Deadline: {deadline_text(_s(c, 'deadline'))}")
        if _s(c, "impact"):
            lines.append(f"- Impact if violated: {_s(c, 'impact')}")
        lines.append("")
    return _lines(*lines) or NO_DATA["constraints"]


def deadline_text(value: str) -> str:
    """A deadline whole, as the spec writes it ("Nov 25, 2024 23:59 UTC"): seconds when it has
    them, its offset from UTC when it is not UTC ("UTC+05:30"), none when it has none."""
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return value
    clock = f"{moment:%H:%M:%S}" if moment.second or moment.microsecond else f"{moment:%H:%M}"
    text = f"{moment:%b} {moment.day}, {moment:%Y} {clock}"
    offset = moment.utcoffset()
    if offset is None:
        return text
    if not offset:
        return text + " UTC"
    minutes = int(offset.total_seconds()) // 60
    sign = "+" if minutes >= 0 else "-"
    return text + f" UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
