"""Conversations as memories: the conversation import row, and the nodes it becomes."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from graphmind.models.base import Count, GraphNode, NodeId, Timestamp

Name = Annotated[str, Field(min_length=1, max_length=256, pattern=r"\S")]


class Turn(GraphNode):
    """One utterance of a conversation: `NEXT` to the following turn, `IN_SESSION` to its
    session, `SPOKEN_BY` its speaker's Partnership, the mind's Identity, or a Person."""

    LABEL: ClassVar[str] = "Turn"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("text",)
    text: str
    speaker: str
    session_id: str
    position: Count
    """0 for the session's first turn."""
    timestamp: Timestamp | None = None


class Session(GraphNode):
    """One conversation session; its turns point to it with `IN_SESSION`."""

    LABEL: ClassVar[str] = "Session"
    WORKING: ClassVar[bool] = True
    started_at: Timestamp
    participants: list[str] = []
    turn_count: Count | None = None


class Person(GraphNode):
    """Someone who spoke in a conversation and has no Partnership in the mind (made by the import
    with the id `person-<name in lower case, spaces as ->`, unless that node exists)."""

    LABEL: ClassVar[str] = "Person"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("name",)
    name: str


class TurnRow(BaseModel):
    """A turn as a conversation row gives it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: NodeId
    speaker: Name
    text: Annotated[str, Field(min_length=1, pattern=r"\S")]
    timestamp: Timestamp | None = None


class ConversationRow(BaseModel):
    """``{"type": "conversation", "session_id", "started_at", "participants", "turns"}``; every
    speaker must be one of the participants (the import checks it)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Literal["conversation"] = "conversation"
    session_id: NodeId
    started_at: Timestamp
    participants: Annotated[list[Name], Field(min_length=1)]
    turns: Annotated[list[TurnRow], Field(min_length=1)]


def person_id(name: str) -> str:
    """The id of the Person node the import makes for a speaker with no Partnership."""
    return "person-" + "-".join(name.casefold().split())


CONVERSATION_TYPES: tuple[type[GraphNode], ...] = (Turn, Session, Person)
