"""The dreaming pipeline (dreaming-pipeline-spec): the night cycle that consolidates a mind's
experiences into patterns, a verified abstraction ladder and cross-connections, in Neo4j.

Entry points: ``Dreamer(store, embedder, llm, params).dream(mind)`` (what ``Mind.dream`` and
``graphmind dream`` call), ``query_knowledge`` and the triggers in ``schedule``. The names
load on first use: the offline LLM imports ``graphmind.dream.rules`` while ``graphmind.llm``
is still loading, and the engine needs ``graphmind.llm``.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "CompressionRatioWarning": "report",
    "DreamBusyError": "engine",
    "DreamParams": "params",
    "DreamReport": "report",
    "Dreamer": "engine",
    "KnowledgeMatch": "knowledge",
    "Trigger": "params",
    "query_knowledge": "knowledge",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'graphmind.dream' has no attribute {name!r}")
    return getattr(import_module(f"graphmind.dream.{_EXPORTS[name]}"), name)
