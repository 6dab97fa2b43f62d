"""``llm.check``: the smallest round trip ``graphmind llm check`` sends through a provider.

Its offline behaviour (registered here, next to the prompt) gives the word back.
"""

from __future__ import annotations

from pydantic import Field

from graphmind.llm.base import Prompt
from graphmind.llm.offline import register_behaviour
from graphmind.prompts._models import PromptModel


class CheckInput(PromptModel):
    """The word the model is asked to give back."""

    word: str = Field(default="graphmind", min_length=1, max_length=40)


class CheckOutput(PromptModel):
    """The word as the model gave it back."""

    echo: str = Field(min_length=1, max_length=40)


def render_check(inputs: CheckInput) -> str:
    return f"Reply with this word, exactly as written: {inputs.word}"


CHECK = Prompt(
    name="llm.check",
    version=1,
    input_type=CheckInput,
    output_type=CheckOutput,
    system="You are a connectivity check. Answer with the word the user gives you, nothing else.",
    render=render_check,
)

PROMPTS = (CHECK,)


@register_behaviour(CHECK.name)
def _offline_check(inputs: CheckInput, tools: object) -> CheckOutput:
    return CheckOutput(echo=inputs.word)
