"""Building blocks shared by the prompt modules: the frozen base model and a recalled memory."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

Unit = Annotated[float, Field(ge=0.0, le=1.0)]
"""A number in 0..1 (scores, rates, confidences)."""

PropertyValue = str | int | float | bool | list[str] | None

NodeType = Literal[
    "Partnership",
    "Conversation_Memory",
    "Technical_Context",
    "Emotional_State",
    "Strategy_Pattern",
    "Code_Reference",
    "Failed_Attempt",
    "Constraint",
]
"""The eight queryable mind-protocol node types (the seed's ``NODE_TYPES``)."""

NODE_TYPES: tuple[NodeType, ...] = get_args(NodeType)


class PromptModel(BaseModel):
    """Base of every prompt input and output: frozen, and strict about unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class MemoryItem(PromptModel):
    """One memory node as a prompt sees it: its id, label, text and (some) properties."""

    id: str = Field(min_length=1)
    label: str = ""
    text: str = ""
    properties: dict[str, PropertyValue] = {}

    def prop(self, name: str) -> PropertyValue:
        """A property's value, or None."""
        return self.properties.get(name)


def format_memory(item: MemoryItem, max_chars: int = 400) -> str:
    """``[id] (Label) text`` on one line, the text cut to ``max_chars``."""
    text = " ".join(item.text.split())
    if len(text) > max_chars:
        text = text[: max_chars - 1].rstrip() + "…"
    label = f" ({item.label})" if item.label else ""
    return f"[{item.id}]{label} {text}".rstrip()


def format_memories(items: Iterable[MemoryItem], empty: str = "(none)") -> str:
    """One ``- [id] (Label) text`` line per memory, or ``empty``."""
    lines = [f"- {format_memory(item)}" for item in items]
    return "\n".join(lines) if lines else empty


def bullet_list(values: Iterable[str], empty: str = "(none)") -> str:
    """``- value`` lines, or ``empty``."""
    lines = [f"- {value}" for value in values]
    return "\n".join(lines) if lines else empty
