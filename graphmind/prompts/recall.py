"""``recall.answer``: answer a question from the mind's memories, citing node ids.

The model may call recall tools (``run_tools``) before answering; memories already recalled
can be passed in ``memories``.
"""

from __future__ import annotations

from pydantic import Field

from graphmind.llm.base import Prompt
from graphmind.prompts._models import MemoryItem, PromptModel, format_memories

SYSTEM = (
    "You answer questions about one mind from its graph memory. Use the tools to recall "
    "memories, then answer only from what they return. Cite the id of every memory you use in "
    "square brackets, like [tc-race]. If the memories do not answer the question, say so: "
    "never invent a fact."
)


class RecallQuestion(PromptModel):
    question: str = Field(min_length=1)
    memories: list[MemoryItem] = []
    max_sentences: int = Field(default=3, ge=1, le=10)


class RecallAnswer(PromptModel):
    """``Mind.ask``'s answer: the text, the memory ids it cites, and whether memory held it."""

    answer: str = Field(min_length=1)
    cited_ids: list[str] = []
    found: bool


def render_answer(inputs: RecallQuestion) -> str:
    known = f"\n\nMemories recalled so far:\n{format_memories(inputs.memories)}" if inputs.memories else ""
    return (
        f"Question: {inputs.question}{known}\n\nAnswer in at most {inputs.max_sentences} sentences, citing memory ids."
    )


ANSWER = Prompt(
    name="recall.answer",
    version=1,
    input_type=RecallQuestion,
    output_type=RecallAnswer,
    system=SYSTEM,
    render=render_answer,
)

PROMPTS: tuple[Prompt, ...] = (ANSWER,)
