"""The offline LLM's built-in behaviours, one module per engine, keyed by prompt name.

``TEMPLATE_WORDS`` is the fixed vocabulary of the behaviours' templates: every other word an
offline output contains comes from the prompt's inputs (tests check this).
"""

from __future__ import annotations

from graphmind.llm.offline_behaviours import context, digest, dream, recall, ruminate, wander

_MODULES = (ruminate, context, dream, wander, digest, recall)

BUILTIN = {name: fn for module in _MODULES for name, fn in module.BEHAVIOURS.items()}
TEMPLATE_WORDS: frozenset[str] = frozenset().union(*(module.TEMPLATE_WORDS for module in _MODULES))

__all__ = ["BUILTIN", "TEMPLATE_WORDS"]
