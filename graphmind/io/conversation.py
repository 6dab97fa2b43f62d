"""A conversation row as the node and edge lines it stands for (pure: no database).

Each turn becomes a ``Turn`` node (its id kept) linked ``NEXT`` to the following turn and
``IN_SESSION`` to the ``Session`` node (id: the row's ``session_id``). Its ``SPOKEN_BY`` edge
waits until the whole file is read (``speaker_lines``): it goes to the Partnership whose
``partner_name`` is the speaker's name (in the file or the mind, case aside), else to the
mind's own Identity of that name (the mind speaking: no Person of its own name), else to the
node ``person-<name>``, made as a ``Person`` when neither the file nor the mind holds it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pydantic

from graphmind.errors import ValidationError
from graphmind.io.lines import EdgeLine, LineError, NodeLine
from graphmind.models.base import first_error, oversize, split_dates
from graphmind.models.conversation import ConversationRow, Person, Session, Turn, person_id

SPOKEN_BY, NEXT, IN_SESSION = "SPOKEN_BY", "NEXT", "IN_SESSION"


@dataclass(frozen=True)
class ConversationLines:
    """The lines of one conversation row: nodes first, then edges, then (turn id, speaker)."""

    line: int
    nodes: list[NodeLine]
    edges: list[EdgeLine]
    speakers: list[tuple[str, str]]


@dataclass
class Speakers:
    """What the import learns of speakers while it reads: who spoke which turn (and on which
    line), the Partnerships of the file by partner name and its Identity by name (case-folded)."""

    turns: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    partners: dict[str, str] = field(default_factory=dict)
    selves: dict[str, str] = field(default_factory=dict)

    def note(self, conversation: ConversationLines) -> None:
        for turn_id, speaker in conversation.speakers:
            self.turns.setdefault(speaker, []).append((conversation.line, turn_id))

    def drop_lines(self, bad: set[int]) -> None:
        for name in list(self.turns):
            self.turns[name] = [turn for turn in self.turns[name] if turn[0] not in bad]
            if not self.turns[name]:
                del self.turns[name]

    def note_node(self, node: NodeLine) -> None:
        if node.label == "Partnership" and isinstance(node.props.get("partner_name"), str):
            self.partners.setdefault(node.props["partner_name"].casefold(), node.id)
        elif node.label == "Identity" and isinstance(node.props.get("name"), str):
            self.selves.setdefault(node.props["name"].casefold(), node.id)


def parse_conversation(number: int, data: dict[str, Any], limit: int) -> ConversationLines:
    """A conversation row as its lines, else ValidationError naming the line and field."""
    try:
        row = ConversationRow.model_validate(data)
    except pydantic.ValidationError as exc:
        raise _error(number, *first_error(exc)) from None
    for index, turn in enumerate(row.turns):
        if turn.speaker not in row.participants:
            raise _error(number, f"turns.{index}.speaker", f"{turn.speaker!r} is not one of the participants")
        reason = oversize(turn.text, limit)
        if reason:
            raise _error(number, f"turns.{index}.text", reason)
    session = Session(
        id=row.session_id, started_at=row.started_at, participants=row.participants, turn_count=len(row.turns)
    )
    nodes = [_node(number, session)]
    edges: list[EdgeLine] = []
    for index, turn in enumerate(row.turns):
        node = Turn(
            id=turn.id,
            text=turn.text,
            speaker=turn.speaker,
            session_id=row.session_id,
            position=index,
            timestamp=turn.timestamp,
        )
        nodes.append(_node(number, node))
        edges.append(EdgeLine(number, IN_SESSION, turn.id, row.session_id, {}, {}))
        if index:
            edges.append(EdgeLine(number, NEXT, row.turns[index - 1].id, turn.id, {}, {}))
    return ConversationLines(number, nodes, edges, [(turn.id, turn.speaker) for turn in row.turns])


def speaker_lines(
    speakers: Speakers, in_file: Callable[[str], bool], stored_partners: Callable[[list[str]], dict[str, str]]
) -> tuple[list[NodeLine], list[EdgeLine], list[tuple[str, str, int]]]:
    """The Person nodes to make, the SPOKEN_BY edges, and (turn id, stand-in Person id, line)
    for each turn linked to a Partnership or the Identity (an earlier import may have linked it
    to the stand-in ``person-<name>``: io/speakers_kept.py), once the whole file is read.
    ``in_file(id)`` tells whether the file has a node of that id; ``stored_partners(names)``
    gives the mind's Partnership ids by case-folded partner name, and its Identity's id by name
    where no Partnership has that name."""
    stored = stored_partners(sorted({name.casefold() for name in speakers.turns} - speakers.partners.keys()))
    nodes: list[NodeLine] = []
    edges: list[EdgeLine] = []
    displaced: list[tuple[str, str, int]] = []
    for name, turns in speakers.turns.items():
        key = name.casefold()
        target = speakers.partners.get(key) or stored.get(key) or speakers.selves.get(key)
        if target is None:
            target = person_id(name)
            if not in_file(target):
                nodes.append(_node(turns[0][0], Person(id=target, name=name)))
        elif target != person_id(name):
            displaced.extend((turn_id, person_id(name), line) for line, turn_id in turns)
        edges.extend(EdgeLine(line, SPOKEN_BY, turn_id, target, {}, {}) for line, turn_id in turns)
    return nodes, edges, displaced


def _node(number: int, node: Turn | Session | Person) -> NodeLine:
    plain, dates = split_dates(node.properties())
    return NodeLine(number, node.id, node.LABEL, plain, dates)


def _error(number: int, field: str | None, message: str) -> ValidationError:
    sentence = LineError(number, field, message).sentence()
    return ValidationError(sentence, line=number, field=field, reason=message)
