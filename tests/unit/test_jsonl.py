import json

import pytest

from graphmind.errors import UnknownLabelError, ValidationError
from graphmind.io.jsonl import EdgeLine, NodeLine, iter_lines, parse_line

LIMIT = 1_000_000


def line(**item) -> str:
    return json.dumps(item)


def test_a_node_line_becomes_a_validated_node():
    parsed = parse_line(
        1,
        line(
            type="node", label="Partnership", id="nicolas", properties={"partner_name": "Nicolas", "trust_level": 0.9}
        ),
        LIMIT,
    )
    assert isinstance(parsed, NodeLine)
    assert parsed.label == "Partnership" and parsed.props["trust_level"] == 0.9


def test_an_edge_line_becomes_an_edge():
    parsed = parse_line(2, line(type="edge", rel="INVOLVES", **{"from": "c", "to": "n"}), LIMIT)
    assert isinstance(parsed, EdgeLine) and parsed.rel == "INVOLVES" and parsed.props == {}


@pytest.mark.parametrize(
    ("text", "field", "fragment"),
    [
        ("{not json", None, "not valid JSON"),
        ('{"a": 1,, "b": 2}\n', None, "at column 9"),
        ('{"id": "b", "properties": {"description": "y"\n', None, "delimiter at the end of the line"),
        ("[1, 2]", None, "JSON object"),
        (line(type="vertex", id="a"), "type", "'node', 'edge' or 'conversation'"),
        (line(type="node", label="Partnership", properties={"partner_name": "N"}), "id", "missing"),
        (line(type="node", label="Partnership", id="", properties={"partner_name": "N"}), "id", "non-empty"),
        (line(type="node", label="Partnership", id=7, properties={"partner_name": "N"}), "id", "string"),
        (line(type="node", label="Partnership", id="a b", properties={"partner_name": "N"}), "id", "spaces"),
        (line(type="node", label="Partnership", id="p", properties={"trust_level": 0.5}), "partner_name", "required"),
        (
            line(type="node", label="Partnership", id="p", properties={"partner_name": "N", "trust_level": "high"}),
            "trust_level",
            "number",
        ),
        (
            line(type="node", label="Partnership", id="p", properties={"partner_name": "N", "trust_level": 1.5}),
            "trust_level",
            "less than or equal to 1",
        ),
        (line(type="node", label="Partnership", id="p", colour="red"), "colour", "unknown key"),
        (line(type="node", label="Partnership", id="p", properties=[1]), "properties", "JSON object"),
        (
            line(type="node", label="Partnership", id="p", properties={"partner_name": "N", "id": "q"}),
            "properties.id",
            "belongs on the line",
        ),
    ],
)
def test_bad_lines_name_their_line_and_field(text, field, fragment):
    with pytest.raises(ValidationError) as caught:
        parse_line(7, text, LIMIT)
    assert caught.value.line == 7
    assert caught.value.field == field
    assert fragment in str(caught.value)
    assert str(caught.value).startswith("line 7")


def test_unknown_labels_and_injected_types_are_refused():
    with pytest.raises(UnknownLabelError, match="field 'label'"):
        parse_line(1, line(type="node", label="Partnership:Admin", id="p", properties={"partner_name": "N"}), LIMIT)
    with pytest.raises(UnknownLabelError, match="field 'rel'"):
        parse_line(1, line(type="edge", rel="KNOWS]->() DETACH DELETE n //", **{"from": "a", "to": "b"}), LIMIT)


def test_oversized_properties_are_refused_before_validation():
    text = line(type="node", label="Partnership", id="p", properties={"partner_name": "N" * 2000})
    with pytest.raises(ValidationError, match="partner_name.*limit is 1,000"):
        parse_line(1, text, 1000)


def test_iter_lines_streams_and_a_line_that_is_not_utf8_is_one_bad_line(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_bytes(b'{"a": 1}\n\n{"b": 2}\n\xff\xfe\n{"c": 3}\n')
    lines = list(iter_lines(path))
    assert [number for number, _ in lines] == [1, 3, 4, 5]  # the lines after it still come
    with pytest.raises(ValidationError) as caught:
        parse_line(*lines[2], LIMIT)
    assert caught.value.line == 4 and str(caught.value) == "line 4: not valid UTF-8"


NODE = {"type": "node", "label": "Partnership", "id": "p"}
EDGE = {"type": "edge", "rel": "INVOLVES", "from": "c", "to": "n"}


@pytest.mark.parametrize(
    ("item", "field", "fragment"),
    [
        ({**NODE, "properties": {"partner_name": "N", "": 1}}, "properties", "must not be empty"),
        ({**NODE, "properties": {"partner_name": "N", "a\x00b": 1}}, "a\\x00b", "NUL character"),
        ({**EDGE, "properties": {"": 1}}, "properties", "must not be empty"),
        ({**EDGE, "properties": {"\x00": 1}}, "\\x00", "NUL character"),
    ],
)
def test_property_names_neo4j_refuses_are_refused_with_line_and_field(item, field, fragment):
    with pytest.raises(ValidationError) as caught:
        parse_line(9, json.dumps(item), LIMIT)
    assert (caught.value.line, caught.value.field) == (9, field)
    assert fragment in str(caught.value) and str(caught.value).startswith(f"line 9, field '{field}'")


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (
            '{"type": "node", "label": "Partnership", "id": "p", "properties": {"partner_name": "\\udcff"}}',
            "partner_name",
        ),
        (
            '{"type": "node", "label": "Partnership", "id": "p", "properties": {"partner_name": "N", '
            '"notes": ["ok", "x\\ud800y"]}}',
            "notes",
        ),
        (
            '{"type": "node", "label": "Partnership", "id": "p", "properties": {"partner_name": "N", "\\udcff": 1}}',
            "\\udcff",
        ),
        ('{"type": "node", "label": "Partnership", "id": "p\\udcff", "properties": {"partner_name": "N"}}', "id"),
        ('{"type": "edge", "rel": "INVOLVES", "from": "c", "to": "n", "properties": {"why": {"a": "\\uDFFF"}}}', "why"),
    ],
)
def test_a_lone_surrogate_is_a_line_error_naming_its_field(text, field):
    with pytest.raises(ValidationError) as caught:
        parse_line(4, text, LIMIT)
    assert (caught.value.line, caught.value.field) == (4, field)
    assert "lone surrogate" in str(caught.value)
    str(caught.value).encode("utf-8")  # the sentence can be printed


def test_a_surrogate_pair_is_one_character_and_passes():
    text = '{"type": "node", "label": "Partnership", "id": "p", "properties": {"partner_name": "N \\ud83d\\ude00"}}'
    assert parse_line(1, text, LIMIT).props["partner_name"] == "N \U0001f600"
