"""The read verbs on a mind's memories (read scope): ``POST recall``, ``POST knowledge`` and
``POST ask`` (the LLM answers from graph tools and cites ids, as ``graphmind ask`` does), and
``GET waiting`` (the experiences no pattern holds yet)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from enum import Enum
from typing import Any

from fastapi import APIRouter, Depends, Query
from pydantic import Field

from graphmind.dream.knowledge import MAX_K as MAX_KNOWLEDGE_K
from graphmind.dream.waiting import MAX_LIMIT as MAX_WAITING
from graphmind.mind import Mind
from graphmind.models import NODE_TYPES
from graphmind.recall._logic import MAX_K as MAX_RECALL_K
from graphmind.server.fields import RequestBody
from graphmind.server.keys import Scope

# The members come from the model's whitelist at import time, which mypy cannot follow.
MemoryLabel = Enum(  # type: ignore[misc]
    "MemoryLabel", {label: label for label, m in NODE_TYPES.items() if m.KIND == "memory"}, type=str
)
"""The labels recall can be asked for (the whitelist; anything else is a 422)."""


class RecallRequest(RequestBody):
    query: str = Field(min_length=1)
    k: int = Field(10, ge=1, le=MAX_RECALL_K)
    label: MemoryLabel | None = None
    as_of: datetime | None = None  # what held then (graphmind/recall/validity.py)


class KnowledgeRequest(RequestBody):
    query: str = Field(min_length=1)
    k: int = Field(5, ge=1, le=MAX_KNOWLEDGE_K)


class AskRequest(RequestBody):
    question: str = Field(min_length=1)


def memory_router(allowed: Callable[[Scope], Callable[..., Mind]]) -> APIRouter:
    """recall, knowledge and ask; ``allowed(scope)`` is the app's key check for ``{mind}``."""
    router = APIRouter(prefix="/api/v1/minds/{mind}", tags=["memory"])

    @router.post("/recall")
    def recall(body: RecallRequest, mind: Mind = Depends(allowed("read"))) -> dict[str, Any]:
        """The memories that best match ``query`` (vector + full-text, fused by rank)."""
        labels = [body.label.value] if body.label else None
        return mind.recall(body.query, k=body.k, labels=labels, as_of=body.as_of).as_dict()

    @router.post("/knowledge")
    def knowledge(body: KnowledgeRequest, mind: Mind = Depends(allowed("read"))) -> dict[str, Any]:
        """The consolidated patterns about ``query``, with their ladder path and examples (none
        when no pattern is more alike to it than unrelated texts are)."""
        return {"matches": [m.as_dict() for m in mind.query_knowledge(body.query, body.k)]}

    @router.post("/ask")
    def ask(body: AskRequest, mind: Mind = Depends(allowed("read"))) -> dict[str, Any]:
        """An answer to ``question`` from the mind's memories: ``answer``, ``cited_ids``,
        ``found`` (false when memory does not hold it), the tool calls that led to it and the
        provider (offline unless the server was started with an LLM key)."""
        run = mind.ask(body.question)
        return {
            "question": body.question,
            **run.output.model_dump(mode="json"),
            "tool_calls": [{"tool": c.tool, "input": c.input} for c in run.calls],
            "llm": {"provider": mind.llm.provider},
        }

    @router.get("/waiting")
    def waiting(
        limit: int = Query(50, ge=1, le=MAX_WAITING), session: str | None = None, mind: Mind = Depends(allowed("read"))
    ) -> dict[str, Any]:
        """The experiences no pattern holds yet, oldest first: ``runs`` 0 when no dream has read
        one, else how many dreams left it to wait for more like it; ``total`` of them in all."""
        return mind.waiting(limit=limit, session=session).as_dict()

    return router
