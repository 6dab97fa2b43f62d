"""Graph tools an LLM may call in ``run_tools``: recall and fetch, scoped to one mind."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from graphmind.errors import NotFoundError
from graphmind.llm import Tool
from graphmind.models import GraphNode
from graphmind.recall.identifiers import unnamed_note
from graphmind.recall.recaller import RecallResult
from graphmind.store.records import shown_properties
from graphmind.text import join_names


class RecallToolInput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    query: str = Field(min_length=1, max_length=2000, description="What to look for, in plain words.")
    k: int = Field(default=5, ge=1, le=20, description="How many memories to return.")


class GetMemoryInput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    id: str = Field(min_length=1, max_length=256, description="The id of a memory of this mind.")


def memory_tools(recall: Callable[[str, int], RecallResult], get: Callable[[str], GraphNode]) -> list[Tool]:
    """``recall_memories`` (hybrid recall) and ``get_memory`` (one memory by id), given one
    mind's ``Mind.recall`` and ``Mind.get``: the tools never reach past that mind."""

    def recall_memories(args: RecallToolInput) -> dict[str, Any]:
        result = recall(args.query, args.k)
        found: dict[str, Any] = {
            "hits": [
                {"id": hit.id, "label": hit.label, "text": hit.text, "score": round(hit.score, 4)}
                | ({"outdated": hit.outdated} if hit.outdated else {})
                | ({"names": list(hit.identifiers)} if hit.identifiers else {})
                | ({"replaces": hit.replaced} if hit.replaced else {})
                for hit in result.hits
            ]
        }
        notes = [unnamed_note(result.unnamed)] if result.unnamed else []
        if result.unheard:
            notes.append(f"no memory of this mind names {join_names(result.unheard)}")
        elif result.off_topic and not result.hits:
            notes.append(
                "no memory of this mind is about this: the nearest are no more alike to it than unrelated texts"
            )
        if notes:
            found["note"] = " ".join(notes)
        return found

    def get_memory(args: GetMemoryInput) -> dict[str, Any]:
        try:
            node = get(args.id)
        except NotFoundError:
            return {"error": f"no memory {args.id!r} in this mind"}
        return {"id": node.id, "label": node.LABEL, "text": node.derived_text(), "properties": shown_properties(node)}

    return [
        Tool(
            "recall_memories",
            "Recall the memories of this mind that best match a query (semantic and keyword search). "
            "A note says when no memory names an identifier of the query (the hits only resemble it); "
            "a hit marked outdated no longer holds, and one marked replaces holds in its place; only memories about the query are returned, and a note "
            "says when none is, or when no memory names a name the query asks about.",
            RecallToolInput,
            recall_memories,
        ),
        Tool(
            "get_memory",
            "Fetch one memory of this mind by its id, with all its properties.",
            GetMemoryInput,
            get_memory,
        ),
    ]
