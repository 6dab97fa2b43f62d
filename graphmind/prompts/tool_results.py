"""Calling the tools a prompt is given, the offline way: fill the one text field, read hits back."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError

from graphmind.llm.base import Tool
from graphmind.prompts._models import MemoryItem

TEXT_FIELDS = ("query", "question", "text", "q", "stimulus")


def call_with_text(tool: Tool, text: str) -> list[MemoryItem] | None:
    """Call ``tool`` with ``text`` in its text field (or with no arguments); None if it cannot be.

    What the tool returns (a list of hits, ``{"hits": [...]}``, models or strings) is read
    back as memories: ``id``/``uid``, ``label`` and ``text`` (else its string properties).
    """
    field = next((f for f in TEXT_FIELDS if f in tool.input_type.model_fields), None)
    try:
        arguments = tool.input_type.model_validate({field: text} if field else {})
    except PydanticValidationError:
        return None  # the tool needs more than a text: the offline LLM cannot fill it
    return as_memories(tool.name, tool.call(arguments))


def as_memories(tool_name: str, result: Any) -> list[MemoryItem]:
    if isinstance(result, BaseModel):
        result = result.model_dump(mode="json")
    if isinstance(result, dict):
        result = result.get("hits", result.get("results", [result]))
    if not isinstance(result, list | tuple):
        result = [result]
    return [item for i, raw in enumerate(result) if (item := _memory(tool_name, i, raw)) is not None]


def _memory(tool_name: str, index: int, raw: Any) -> MemoryItem | None:
    if isinstance(raw, BaseModel):
        raw = raw.model_dump(mode="json")
    if isinstance(raw, str):
        return MemoryItem(id=f"{tool_name}:{index}", text=raw) if raw.strip() else None
    if not isinstance(raw, dict):
        return None
    found = raw.get("properties")
    props: dict = found if isinstance(found, dict) else {}
    text = raw.get("text") or " — ".join(str(v) for v in props.values() if isinstance(v, str))
    ident = raw.get("id") or raw.get("uid") or f"{tool_name}:{index}"
    if not text:
        return None
    marks: dict[str, Any] = {"outdated": str(raw["outdated"])} if raw.get("outdated") else {}  # no longer valid
    if isinstance(raw.get("names"), list):  # the question's identifiers recall ranked this hit by
        marks["names"] = [str(x) for x in raw["names"]]
    if raw.get("replaces"):  # the outdated hit this memory replaced (recall.hits.with_replacements)
        marks["replaces"] = str(raw["replaces"])
    return MemoryItem(id=str(ident), label=str(raw.get("label") or ""), text=str(text), properties=marks)
