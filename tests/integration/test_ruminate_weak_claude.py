"""A name-only stimulus through Claude's path (issue 21, item 2): the real ``anthropic`` SDK
against the Messages stub, whose Context Object draft is grounded in every fact but frames the
stimulus as continuing the sender's unrelated conversation, as Claude might. The check rejects
the draft for that alone, and the grounded offline wording stands in its place."""

from __future__ import annotations

from pathlib import Path

import anthropic
import pytest

from graphmind.llm.anthropic import AnthropicLLM
from graphmind.mind import Mind
from graphmind.prompts.ruminate import GAP_QUERIES
from tests.fixtures.messages_stub import MessagesStub, Reply, Request, json_reply, tool_reply

pytestmark = pytest.mark.integration

CLINIC = Path(__file__).resolve().parents[1] / "data" / "ruminate" / "clinic.jsonl"
STIMULUS = "Lena: do you know a good dentist near the station?"
FRAMINGS = [
    "This continues our discussion about clinic website opening hours.",
    "Picking up where we left off: the clinic website opening hours, and now this.",
    "Following up on our earlier conversation about the clinic website opening hours.",
]


class Framing:
    """Queries once, then crystallizes; drafts the context with ``framing`` in Current Situation."""

    def __init__(self, framing: str) -> None:
        self.framing = framing

    def __call__(self, request: Request) -> Reply:
        body = request.body
        if "tools" not in body:
            return json_reply(
                {
                    "identity": "Tove, rural veterinarian focused on farm animal health. Partner to Lena for 2 years.",
                    "current_situation": f'Lena says: "{STIMULUS}"\n\n{self.framing}',
                    "relevant_history": "Clinic website opening hours: 3 messages; New photos needed.",
                    "strategic_direction": "No strategy data found in the graph.",
                    "emotional_resonance": "No emotional data found in the graph.",
                    "technical_context": "No technical data found in the graph.",
                    "constraints": "No constraints found in the graph.",
                    "cited_ids": ["p-lena", "conv-lena-site"],
                }
            )
        called = any(
            b.get("type") == "tool_use" for m in body["messages"] if m["role"] == "assistant" for b in m["content"]
        )
        if not called:
            return tool_reply(GAP_QUERIES["Conversation_Memory"], {})
        return json_reply(
            {
                "finding": {
                    "node_type": "Conversation_Memory",
                    "gap_explored": "history",
                    "query": GAP_QUERIES["Conversation_Memory"],
                    "result": "conv-lena-site",
                    "synthesis": "What I have with Lena is about the clinic website, and I hold nothing else.",
                    "memory_ids": ["conv-lena-site"],
                    "confidence": 0.6,
                },
                "gap_update": {"composite_gap_score": 0.2},
                "internal_monologue": "The name pulls, but I find little under it.",
                "signal": "CRYSTALLIZE",
                "signal_reasoning": "There is no more here.",
            }
        )


@pytest.mark.parametrize("framing", FRAMINGS)
def test_a_claude_draft_framing_a_name_only_match_as_a_continuation_is_set_aside(store, settings, mind, framing):
    stub = MessagesStub().start()
    stub.responder = Framing(framing)
    client = anthropic.Anthropic(base_url=stub.url, api_key="test", max_retries=0, timeout=10)
    try:
        llm = AnthropicLLM(client, model="claude-stub-1", prices={"claude-stub-1": (200.0, 1000.0)})
        mind.import_jsonl(CLINIC)
        result = Mind(mind.name, store, settings, llm=llm).ruminate(STIMULUS, sender="Lena")
    finally:
        client.close()
        stub.stop()
    validation = result.context.validation
    assert result.coverage["relevance"]["conv-lena-site"].startswith("kept as weak")
    assert validation.composer == "template"
    assert [(i.section, i.kind) for i in validation.rejected_draft] == [("current_situation", "form")]
    assert "continuation" in validation.rejected_draft[0].text
    situation = result.context.section("current_situation").text
    assert "Lena last spoke about clinic website opening hours; nothing in memory about" in situation
    assert "dentist" in situation and framing not in result.context_markdown
    assert "continues our discussion" not in result.context_markdown
