"""Offline Context Object: the spec's templates filled from the memories given
(``graphmind.context.templates``)."""

from __future__ import annotations

from collections.abc import Sequence

from graphmind.context.templates import TEMPLATE_WORDS
from graphmind.context.templates import compose as compose_from_templates
from graphmind.llm.base import Tool
from graphmind.prompts.context import ContextInput, ContextSections

__all__ = ["BEHAVIOURS", "TEMPLATE_WORDS"]


def compose(inputs: ContextInput, tools: Sequence[Tool]) -> ContextSections:
    return compose_from_templates(inputs)


BEHAVIOURS = {"context.compose": compose}
