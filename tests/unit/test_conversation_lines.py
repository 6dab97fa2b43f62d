"""A conversation import row as node and edge lines, and its bad rows (no database)."""

import json

import pytest

from graphmind.errors import ValidationError
from graphmind.io.conversation import ConversationLines, Speakers, speaker_lines
from graphmind.io.jsonl import EdgeLine, NodeLine, parse_line

LIMIT = 1_000_000


def row(**changes):
    data = {
        "type": "conversation",
        "session_id": "s1",
        "started_at": "2024-05-02T10:00:00Z",
        "participants": ["Ana", "Ben"],
        "turns": [
            {"id": "s1-1", "speaker": "Ana", "text": "the kiln cracked again", "timestamp": "2024-05-02T10:00:00Z"},
            {"id": "s1-2", "speaker": "Ben", "text": "which shelf was it on?"},
            {"id": "s1-3", "speaker": "Ana", "text": "the top one, near the vent"},
        ],
    }
    data.update(changes)
    return json.dumps(data)


def test_a_conversation_row_becomes_a_session_turns_and_their_edges():
    item = parse_line(4, row(), LIMIT)
    assert isinstance(item, ConversationLines)
    assert [(n.label, n.id) for n in item.nodes] == [
        ("Session", "s1"),
        ("Turn", "s1-1"),
        ("Turn", "s1-2"),
        ("Turn", "s1-3"),
    ]
    assert {n.line for n in item.nodes} == {4}
    session, first, second = item.nodes[0], item.nodes[1], item.nodes[2]
    assert session.dates["started_at"].startswith("2024-05-02T10:00:00")
    assert session.props["participants"] == ["Ana", "Ben"]
    assert first.props == {"text": "the kiln cracked again", "speaker": "Ana", "session_id": "s1", "position": 0}
    assert "timestamp" in first.dates and "timestamp" not in second.dates
    assert sorted((e.rel, e.from_id, e.to_id) for e in item.edges) == [
        ("IN_SESSION", "s1-1", "s1"),
        ("IN_SESSION", "s1-2", "s1"),
        ("IN_SESSION", "s1-3", "s1"),
        ("NEXT", "s1-1", "s1-2"),
        ("NEXT", "s1-2", "s1-3"),
    ]
    assert item.speakers == [("s1-1", "Ana"), ("s1-2", "Ben"), ("s1-3", "Ana")]


def _turns(**changes):
    turns = json.loads(row())["turns"]
    turns[1] = {**turns[1], **changes}
    return turns


@pytest.mark.parametrize(
    "changes, field, fragment",
    [
        ({"session_id": None}, "session_id", "string"),
        ({"session_id": "has space"}, "session_id", "pattern"),
        ({"started_at": "last tuesday"}, "started_at", "datetime"),
        ({"participants": []}, "participants", "at least 1"),
        ({"turns": []}, "turns", "at least 1"),
        ({"turns": _turns(speaker="Cleo")}, "turns.1.speaker", "not one of the participants"),
        ({"turns": _turns(text="   ")}, "turns.1.text", "pattern"),
        ({"turns": _turns(id="")}, "turns.1.id", "at least 1"),
        ({"turns": _turns(mood="glad")}, "turns.1.mood", "Extra inputs"),
        ({"turns": _turns(timestamp="soon")}, "turns.1.timestamp", "datetime"),
        ({"topic": "kilns"}, "topic", "Extra inputs"),
    ],
)
def test_bad_conversation_rows_name_their_line_and_field(changes, field, fragment):
    with pytest.raises(ValidationError) as caught:
        parse_line(9, row(**changes), LIMIT)
    assert caught.value.line == 9
    assert caught.value.field == field
    assert fragment in str(caught.value)
    assert str(caught.value).startswith(f"line 9, field '{field}': ")


def test_a_turn_over_the_property_limit_is_refused():
    with pytest.raises(ValidationError) as caught:
        parse_line(2, row(), 10)
    assert caught.value.field == "turns.0.text"


def _speakers(*conversations: ConversationLines, partner: NodeLine | None = None) -> Speakers:
    speakers = Speakers()
    for c in conversations:
        speakers.note(c)
    if partner:
        speakers.note_node(partner)
    return speakers


def test_speakers_link_to_a_partnership_by_name_else_to_a_person_made_once():
    first, second = (
        parse_line(1, row(), LIMIT),
        parse_line(2, row(session_id="s2", turns=[{"id": "s2-1", "speaker": "Ben", "text": "kiln fixed"}]), LIMIT),
    )
    partner = NodeLine(3, "ana-partner", "Partnership", {"partner_name": "ANA"}, {})
    nodes, edges, displaced = speaker_lines(
        _speakers(first, second, partner=partner), lambda i: False, lambda names: {}
    )
    assert [(n.label, n.id, n.props) for n in nodes] == [("Person", "person-ben", {"name": "Ben"})]
    assert sorted(displaced) == [("s1-1", "person-ana", 1), ("s1-3", "person-ana", 1)]  # a stand-in to drop
    assert sorted((e.from_id, e.to_id, e.line) for e in edges) == [
        ("s1-1", "ana-partner", 1),
        ("s1-2", "person-ben", 1),
        ("s1-3", "ana-partner", 1),
        ("s2-1", "person-ben", 2),
    ]
    assert {e.rel for e in edges} == {"SPOKEN_BY"} and all(isinstance(e, EdgeLine) for e in edges)


def test_a_stored_partnership_or_an_existing_person_is_linked_not_made():
    asked = []

    def stored(names):
        asked.append(names)
        return {"ben": "ben-stored"}

    nodes, edges, displaced = speaker_lines(_speakers(parse_line(1, row(), LIMIT)), {"person-ana"}.__contains__, stored)
    assert nodes == [] and displaced == [("s1-2", "person-ben", 1)]
    assert asked == [["ana", "ben"]]
    assert {(e.from_id, e.to_id) for e in edges} == {
        ("s1-1", "person-ana"),
        ("s1-2", "ben-stored"),
        ("s1-3", "person-ana"),
    }


def test_a_person_is_made_on_a_line_that_is_kept():
    speakers = _speakers(
        parse_line(1, row(), LIMIT),
        parse_line(5, row(session_id="s2", turns=[{"id": "s2-1", "speaker": "Ana", "text": "hi"}]), LIMIT),
    )
    speakers.drop_lines({1})
    nodes, edges, _ = speaker_lines(speakers, lambda i: False, lambda names: {})
    assert [(n.id, n.line) for n in nodes] == [("person-ana", 5)]
    assert [e.line for e in edges] == [5]


def test_the_mind_speaking_links_to_its_own_identity_not_a_person():
    speakers = _speakers(parse_line(1, row(), LIMIT))
    speakers.note_node(NodeLine(2, "self", "Identity", {"name": "ben"}, {}))
    nodes, edges, _ = speaker_lines(speakers, lambda i: False, lambda names: {})
    assert [n.id for n in nodes] == ["person-ana"]  # Ben is the mind itself
    assert {(e.from_id, e.to_id) for e in edges if e.to_id == "self"} == {("s1-2", "self")}
    partner = NodeLine(3, "ben-partner", "Partnership", {"partner_name": "Ben"}, {})
    speakers.note_node(partner)
    _, edges, _ = speaker_lines(speakers, lambda i: False, lambda names: {})
    assert {e.to_id for e in edges if e.from_id == "s1-2"} == {"ben-partner"}  # a Partnership comes first
