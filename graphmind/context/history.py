"""Relevant History's turns of recorded conversations, as the Context Object quotes them (pure).

A conversation recorded the documented way (an imported ``conversation`` line,
``Mind.add_conversation``) is a chain of ``Turn`` nodes. Relevance keeps the turns the sender
spoke on the topic and those matching the stimulus; here they are quoted as said, grouped by
conversation, each with its date and speaker when it has them. A quote is the turn's own text
(cut at a word boundary, the cut marked outside the quotes), so the grounding check finds it in
the turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from graphmind.prompts._models import MemoryItem

TURN_CHARS = 280
"""A turn is quoted up to this many characters (about 70 tokens)."""


def date_text(value: str) -> str:
    """A date as the spec writes it ("Nov 15, 2024"); the value itself when it is no date."""
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return value
    return f"{moment:%b} {moment.day}, {moment:%Y}"


def turn_lines(turns: Sequence[MemoryItem]) -> list[str]:
    """One line per turn of ``turns`` (most relevant first), grouped by conversation: the
    conversation of the most relevant turn first, each one's turns in the order they were said."""
    return [turn_line(t) for t in in_conversation_order(turns)]


def in_conversation_order(turns: Sequence[MemoryItem]) -> list[MemoryItem]:
    first: dict[str, int] = {}
    for rank, t in enumerate(turns):
        first.setdefault(_text(t, "session_id"), rank)

    def key(i: int) -> tuple[int, int, str, int]:
        position = turns[i].prop("position")
        session = first[_text(turns[i], "session_id")]
        return session, position if isinstance(position, int) else 0, _text(turns[i], "timestamp"), i

    return [turns[i] for i in sorted(range(len(turns)), key=key)]


def turn_line(turn: MemoryItem) -> str:
    """'- Sep 17, 2025, Tom: "The chiller can't keep up."': the turn quoted as said, cut at a
    word boundary after ``TURN_CHARS`` characters, with its date and speaker when it has them."""
    who = ", ".join(_who(turn))
    return f"- {who}: {quote(turn)}" if who else f"- {quote(turn)}"


def quote(turn: MemoryItem) -> str:
    """What ``turn_line`` shows of what was said: in quotes (unless it holds one), cut with "…"."""
    said = " ".join((_text(turn, "text") or turn.text).split())
    cut = len(said) > TURN_CHARS
    if cut:
        said = said[:TURN_CHARS].rsplit(" ", 1)[0].rstrip(",;:")
    return (f'"{said}"' if '"' not in said else said) + ("…" if cut else "")


def quoted_ids(text: str, turns: Sequence[MemoryItem]) -> list[str]:
    """The ids of ``turns`` a line of ``text`` quotes as ``turn_line`` does: '- <quote>', or
    '- <who>: <quote>' whose <who> names the turn's date and speaker (those it has)."""
    lines = [_normal(line) for line in text.splitlines()]
    return [t.id for t in turns if any(_quotes(line, t) for line in lines)]


def _quotes(line: str, turn: MemoryItem) -> bool:
    said = _normal(quote(turn))
    if line == f"- {said}":
        return True
    if not (line.startswith("- ") and line.endswith(f": {said}")):
        return False
    who = line[2 : -len(said) - 2]
    return ": " not in who and all(_normal(part) in who for part in _who(turn))


def _who(turn: MemoryItem) -> list[str]:
    when = date_text(_text(turn, "timestamp")) if _text(turn, "timestamp") else ""
    return [x for x in (when, _text(turn, "speaker")) if x]


def _normal(text: str) -> str:
    return " ".join(text.replace("“", '"').replace("”", '"').lower().split())


def _text(item: MemoryItem, name: str) -> str:
    value = item.prop(name)
    return "" if value is None or isinstance(value, list) else str(value)
