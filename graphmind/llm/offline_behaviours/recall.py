"""Offline ``recall.answer``: call the recall tools with the question, answer extractively.

Every tool whose input has a text field (``query``, ``question``, ``text``, ``q``) is called
once with the question; what the tools return (hits as dicts with ``id``/``text``, or models)
joins the memories given. The answer is the sentences sharing most terms with the question,
each followed by the id of its memory; with no such sentence it says nothing was found.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError

from graphmind.llm.base import Tool
from graphmind.llm.offline_behaviours._text import as_sentence, rank_by_overlap, sentences, term_set, trim
from graphmind.prompts._models import MemoryItem
from graphmind.prompts.recall import RecallAnswer, RecallQuestion

TEMPLATE_WORDS = frozenset("no memories found that answer result".split())

QUERY_FIELDS = ("query", "question", "text", "q")


def answer(inputs: RecallQuestion, tools: Sequence[Tool]) -> RecallAnswer:
    memories = list(inputs.memories)
    for tool in tools:
        field = next((f for f in QUERY_FIELDS if f in tool.input_type.model_fields), None)
        if field is None:
            continue
        try:
            arguments = tool.input_type.model_validate({field: inputs.question})
        except PydanticValidationError:
            continue  # the tool needs more than a question: the offline LLM cannot fill it
        memories += _memories(tool.name, tool.call(arguments))
    return _extract(inputs, _unique(memories))


def _extract(inputs: RecallQuestion, memories: list[MemoryItem]) -> RecallAnswer:
    pool = [(s, m.id) for m in memories for s in sentences(m.text)]
    question = term_set(inputs.question)
    ranked = [pool[i] for i in rank_by_overlap([s for s, _ in pool], inputs.question)
              if term_set(pool[i][0]) & question]
    chosen = list(dict.fromkeys(ranked))[: inputs.max_sentences]
    if not chosen:
        return RecallAnswer(answer=f"No memories found that answer: {inputs.question}", found=False)
    text = " ".join(f"{as_sentence(trim(s, 220))} [{mid}]" for s, mid in chosen)
    return RecallAnswer(answer=text, cited_ids=list(dict.fromkeys(mid for _, mid in chosen)), found=True)


def _memories(tool_name: str, result: Any) -> list[MemoryItem]:
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
    props = raw.get("properties") if isinstance(raw.get("properties"), dict) else {}
    text = raw.get("text") or " — ".join(str(v) for v in props.values() if isinstance(v, str))
    ident = raw.get("id") or raw.get("uid") or f"{tool_name}:{index}"
    if not text:
        return None
    return MemoryItem(id=str(ident), label=str(raw.get("label") or ""), text=str(text))


def _unique(memories: list[MemoryItem]) -> list[MemoryItem]:
    return list({m.id: m for m in reversed(memories)}.values())[::-1]


BEHAVIOURS = {"recall.answer": answer}
