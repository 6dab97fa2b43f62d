"""Every prompt graphmind sends, named ``"<engine>.<purpose>"``, versioned and typed.

Each module keeps its prompts' text next to their input and output models and exposes them
as ``PROMPTS``; this registry collects the modules listed in ``_MODULES`` (plus ``llm`` when
that module exists). Engines import a prompt from its module or look it up by name.
"""

from __future__ import annotations

import importlib
import importlib.util

from graphmind.errors import NotFoundError
from graphmind.llm.base import Prompt

_MODULES = ("ruminate", "context", "dream", "wander", "digest", "recall")
_OPTIONAL_MODULES = ("llm",)


def _collect() -> dict[str, Prompt]:
    names = list(_MODULES)
    names += [n for n in _OPTIONAL_MODULES if importlib.util.find_spec(f"{__name__}.{n}") is not None]
    prompts: dict[str, Prompt] = {}
    for module_name in names:
        module = importlib.import_module(f"{__name__}.{module_name}")
        module_prompts = getattr(module, "PROMPTS", None)
        if module_prompts is None:  # a module that only defines Prompt constants
            module_prompts = [v for v in vars(module).values() if isinstance(v, Prompt)]
        for prompt in module_prompts:
            if prompt.name in prompts:
                raise ValueError(f"prompt {prompt.name!r} is defined twice")
            prompts[prompt.name] = prompt
    return prompts


PROMPTS: dict[str, Prompt] = _collect()
"""Every registered prompt by name."""


def get_prompt(name: str) -> Prompt:
    """The prompt called ``name``; ``NotFoundError`` if there is none."""
    try:
        return PROMPTS[name]
    except KeyError:
        raise NotFoundError(f"there is no prompt named {name!r}") from None


__all__ = ["PROMPTS", "get_prompt"]
