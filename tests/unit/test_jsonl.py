import json

import pytest

from graphmind.errors import UnknownLabelError, ValidationError
from graphmind.io.jsonl import EdgeLine, NodeLine, iter_lines, parse_line

LIMIT = 1_000_000


def line(**item) -> str:
    return json.dumps(item)


def test_a_node_line_becomes_a_validated_node():
    parsed = parse_line(1, line(type="node", label="Partnership", id="nicolas",
                                properties={"partner_name": "Nicolas", "trust_level": 0.9}), LIMIT)
    assert isinstance(parsed, NodeLine)
    assert parsed.label == "Partnership" and parsed.props["trust_level"] == 0.9


def test_an_edge_line_becomes_an_edge():
    parsed = parse_line(2, line(type="edge", rel="INVOLVES", **{"from": "c", "to": "n"}), LIMIT)
    assert isinstance(parsed, EdgeLine) and parsed.rel == "INVOLVES" and parsed.props == {}


@pytest.mark.parametrize(("text", "field", "fragment"), [
    ("{not json", None, "not valid JSON"),
    ("[1, 2]", None, "JSON object"),
    (line(type="vertex", id="a"), "type", "'node' or 'edge'"),
    (line(type="node", label="Partnership", properties={"partner_name": "N"}), "id", "missing"),
    (line(type="node", label="Partnership", id="", properties={"partner_name": "N"}), "id", "non-empty"),
    (line(type="node", label="Partnership", id=7, properties={"partner_name": "N"}), "id", "string"),
    (line(type="node", label="Partnership", id="a b", properties={"partner_name": "N"}), "id", "spaces"),
    (line(type="node", label="Partnership", id="p", properties={"trust_level": 0.5}), "partner_name", "required"),
    (line(type="node", label="Partnership", id="p", properties={"partner_name": "N", "trust_level": "high"}),
     "trust_level", "number"),
    (line(type="node", label="Partnership", id="p", properties={"partner_name": "N", "trust_level": 1.5}),
     "trust_level", "less than or equal to 1"),
    (line(type="node", label="Partnership", id="p", colour="red"), "colour", "unknown key"),
    (line(type="node", label="Partnership", id="p", properties=[1]), "properties", "JSON object"),
    (line(type="node", label="Partnership", id="p", properties={"partner_name": "N", "id": "q"}),
     "properties.id", "belongs on the line"),
])
def test_bad_lines_name_their_line_and_field(text, field, fragment):
    with pytest.raises(ValidationError) as caught:
        parse_line(7, text, LIMIT)
    assert caught.value.line == 7
    assert caught.value.field == field
    assert fragment in str(caught.value)
    assert str(caught.value).startswith("line 7")


def test_unknown_labels_and_injected_types_are_refused():
    with pytest.raises(UnknownLabelError, match="field 'label'"):
        parse_line(1, line(type="node", label="Partnership:Admin", id="p",
                           properties={"partner_name": "N"}), LIMIT)
    with pytest.raises(UnknownLabelError, match="field 'rel'"):
        parse_line(1, line(type="edge", rel="KNOWS]->() DETACH DELETE n //", **{"from": "a", "to": "b"}), LIMIT)


def test_oversized_properties_are_refused_before_validation():
    text = line(type="node", label="Partnership", id="p", properties={"partner_name": "N" * 2000})
    with pytest.raises(ValidationError, match="partner_name.*limit is 1,000"):
        parse_line(1, text, 1000)


def test_iter_lines_streams_and_rejects_bad_utf8(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_bytes(b'{"a": 1}\n\n{"b": 2}\n\xff\xfe\n')
    seen = []
    with pytest.raises(ValidationError, match="line 4 is not valid UTF-8"):
        for number, _text in iter_lines(path):
            seen.append(number)
    assert seen == [1, 3]
