"""Reading and validating import lines, one at a time (pure: no database)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

import pydantic

from graphmind.errors import NotFoundError, UnknownLabelError, ValidationError
from graphmind.io.conversation import ConversationLines, parse_conversation
from graphmind.io.lines import EdgeLine, LineError, NodeLine
from graphmind.models import check_rel_type, edge_properties_model, node_model
from graphmind.models.base import INPUT, NodeId, check_property_name, first_error, oversize, split_dates

_NODE_KEYS = frozenset({"type", "label", "id", "properties"})
_EDGE_KEYS = frozenset({"type", "rel", "from", "to", "properties"})
_ID = pydantic.TypeAdapter(NodeId)
_SURROGATES = re.compile("[\ud800-\udfff]")
_SURROGATE = "holds a lone surrogate (a \\uD800-\\uDFFF escape without its pair), which is not Unicode text"


def open_input(path: Path) -> BinaryIO:
    """``path`` opened for reading, else NotFoundError in one sentence (missing, not a file, a
    name too long or holding a NUL, no permission): what a command checks before anything else."""
    try:
        if not path.is_file():
            raise NotFoundError(f"{path} does not exist or is not a file")
        return path.open("rb")
    except (OSError, ValueError) as exc:
        raise NotFoundError(f"{path} cannot be read ({getattr(exc, 'strerror', None) or exc})") from None


def iter_lines(path: Path) -> Iterator[tuple[int, str | bytes]]:
    """(line number, text) for each non-blank line, streamed. A line that is not UTF-8 comes
    as its raw bytes, for ``parse_line`` to refuse: one bad line, not a bad file."""
    with open_input(path) as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                yield number, raw
                continue
            if text.strip():
                yield number, text


def parse_line(number: int, text: str | bytes, max_property_bytes: int) -> NodeLine | EdgeLine | ConversationLines:
    """One line as a validated NodeLine, EdgeLine or ConversationLines, else ValidationError
    naming line and field.
    ``text`` as bytes is a line that could not be decoded (see ``iter_lines``)."""
    if isinstance(text, bytes):
        raise _error(number, None, "not valid UTF-8")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:  # a JSONDecodeError, a 5,000-digit number, nesting too deep
        if isinstance(exc, json.JSONDecodeError):  # "Invalid control character at" + where
            ended = exc.pos >= len(text.rstrip("\r\n"))  # a line cut short, not its terminator's line
            where = "the end of the line" if ended else f"column {exc.pos + 1}"
            detail = f"{exc.msg}{'' if exc.msg.endswith(' at') else ' at'} {where}"
        else:
            detail = "nested too deeply" if isinstance(exc, RecursionError) else "a number with too many digits"
        reason = f"not valid JSON ({detail})"
        raise ValidationError(f"line {number} is {reason}", line=number, reason=reason) from None
    if not isinstance(data, dict):
        reason = "must be a JSON object"
        raise ValidationError(f"line {number} {reason}", line=number, reason=reason)
    if "\\ud" in text or "\\uD" in text:  # only a \u escape makes a lone surrogate
        _check_text(number, data)
    kind = data.get("type")
    if kind == "node":
        return _node(number, data, max_property_bytes)
    if kind == "edge":
        return _edge(number, data, max_property_bytes)
    if kind == "conversation":
        return parse_conversation(number, data, max_property_bytes)
    raise _error(number, "type", f"must be 'node', 'edge' or 'conversation', not {kind!r}")


def _check_text(number: int, data: dict[str, Any]) -> None:
    """Refuse a string that is not Unicode text: a lone surrogate such as the JSON escape
    ``\\udcff`` decodes, but cannot be encoded to be sent or printed."""
    for key, value in data.items():
        if key == "properties" and isinstance(value, dict):
            for name, prop in value.items():
                if _has_surrogate(name) or _has_surrogate(prop):
                    raise _error(number, _shown(name) or "properties", _SURROGATE)
        elif _has_surrogate(key) or _has_surrogate(value):
            raise _error(number, _shown(key), _SURROGATE)


def _has_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return _SURROGATES.search(value) is not None
    if isinstance(value, list):
        return any(_has_surrogate(item) for item in value)
    if isinstance(value, dict):
        return any(_has_surrogate(key) or _has_surrogate(item) for key, item in value.items())
    return False


def _shown(name: str) -> str:
    """A name as it can be printed: escapes for characters that are not printable text."""
    return name if name.isprintable() and not _has_surrogate(name) else repr(name)[1:-1]


def _node(number: int, data: dict[str, Any], limit: int) -> NodeLine:
    _check_keys(number, data, _NODE_KEYS)
    node_id = _identifier(number, data, "id")
    try:
        model = node_model(data.get("label"))
    except UnknownLabelError as exc:
        raise _error(number, "label", str(exc), UnknownLabelError) from None
    props = _properties(number, data, limit)
    if "id" in props:
        raise _error(number, "properties.id", "the id belongs on the line, not in properties")
    try:
        node = model.model_validate({**props, "id": node_id}, context=INPUT)
    except pydantic.ValidationError as exc:
        raise _from_pydantic(number, exc) from None
    plain, dates = split_dates(node.properties())
    return NodeLine(number, node_id, model.LABEL, plain, dates)


def _edge(number: int, data: dict[str, Any], limit: int) -> EdgeLine:
    _check_keys(number, data, _EDGE_KEYS)
    try:
        rel = check_rel_type(data.get("rel"))
    except UnknownLabelError as exc:
        raise _error(number, "rel", str(exc), UnknownLabelError) from None
    from_id = _identifier(number, data, "from")
    to_id = _identifier(number, data, "to")
    props = _properties(number, data, limit)
    model = edge_properties_model(rel)
    try:
        typed = model.model_validate(props)
    except pydantic.ValidationError as exc:
        raise _from_pydantic(number, exc) from None
    plain, dates = split_dates(typed.model_dump(exclude_none=True))
    return EdgeLine(number, rel, from_id, to_id, plain, dates, tuple(plain.get(k) for k in model.KEY))


def _check_keys(number: int, data: dict[str, Any], allowed: frozenset[str]) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise _error(number, unknown[0], f"unknown key; a {data['type']} line has {sorted(allowed)}")


def _identifier(number: int, data: dict[str, Any], key: str) -> str:
    if key not in data:
        raise _error(number, key, "is missing")
    try:
        return _ID.validate_python(data[key], strict=True)
    except pydantic.ValidationError as exc:
        raise _error(number, key, f"must be a non-empty string without spaces ({_first(exc)})") from None


def _properties(number: int, data: dict[str, Any], limit: int) -> dict[str, Any]:
    props = data.get("properties", {})
    if not isinstance(props, dict):
        raise _error(number, "properties", "must be a JSON object")
    for name, value in props.items():
        try:
            check_property_name(name)
        except ValueError as exc:
            raise _error(number, _shown(name) or "properties", str(exc)) from None
        reason = oversize(value, limit)
        if reason:
            raise _error(number, name, reason)
    return props


def _from_pydantic(number: int, exc: pydantic.ValidationError) -> ValidationError:
    return _error(number, *first_error(exc))


def _first(exc: pydantic.ValidationError) -> str:
    return exc.errors()[0]["msg"].removeprefix("Value error, ")


def _error(
    number: int, field: str | None, message: str, kind: type[ValidationError] = ValidationError
) -> ValidationError:
    sentence = LineError(number, field, message).sentence()
    return kind(sentence, line=number, field=field, reason=message)
