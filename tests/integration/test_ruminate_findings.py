"""What the Dreamer established shapes the Context Object (issue 21, item 1), through the real
``anthropic`` SDK against the Messages stub: a Claude-like Dreamer queries, then concludes in
its own words that one memory is a dead end for this stimulus and another is what it calls for.
The dead end leaves the context (and the compose prompt); the other is kept with the step that
established it, the section showing it cites that step and restates its grounded conclusion."""

from __future__ import annotations

from pathlib import Path

import anthropic
import pytest

from graphmind.llm.anthropic import AnthropicLLM
from graphmind.mind import Mind
from graphmind.prompts.ruminate import GAP_QUERIES
from tests.fixtures.messages_stub import MessagesStub, Reply, Request, json_reply, tool_reply

pytestmark = pytest.mark.integration

APIARY = Path(__file__).resolve().parents[1] / "data" / "ruminate" / "apiary.jsonl"
STIMULUS = "Ines: the mites at North Meadow are up again, the boards look bad."
CONCLUSION = (
    "The sugar dusting [fail-sugar] is a dead end for this question, nothing to build on. "
    "The oxalic trickle [strat-oxalic] is the treatment these mite counts point to before the cluster forms."
)


class Concluding:
    """Step 1: the strategy gap's tool; then a finding in the Dreamer's words, [CRYSTALLIZE].
    Guard re-asks get the same answer. The Context Object's draft names a keeper the mind does
    not hold, so the grounded templates compose it."""

    def __init__(self) -> None:
        self.compose_prompts: list[str] = []

    def __call__(self, request: Request) -> Reply:
        body = request.body
        prompt = next(m["content"] for m in body["messages"] if m["role"] == "user")
        if "tools" not in body:
            self.compose_prompts.append(prompt)
            sections = dict.fromkeys(
                (
                    "identity",
                    "current_situation",
                    "relevant_history",
                    "strategic_direction",
                    "emotional_resonance",
                    "technical_context",
                    "constraints",
                ),
                "Ask Bartholomew Quint first.",
            )
            return json_reply({**sections, "cited_ids": []})
        called = any(
            b.get("type") == "tool_use" for m in body["messages"] if m["role"] == "assistant" for b in m["content"]
        )
        if not called and "[GUARD RAIL ACTIVATION]" not in prompt:
            return tool_reply(GAP_QUERIES["Strategy_Pattern"], {})
        return json_reply(
            {
                "finding": {
                    "node_type": "Strategy_Pattern",
                    "gap_explored": "what to do",
                    "query": GAP_QUERIES["Strategy_Pattern"],
                    "result": "strat-oxalic, fail-sugar",
                    "synthesis": CONCLUSION,
                    "memory_ids": ["strat-oxalic", "fail-sugar"],
                    "confidence": 0.8,
                },
                "gap_update": {"composite_gap_score": 0.1},
                "internal_monologue": "I keep returning to the window; the rest is noise for now.",
                "signal": "CRYSTALLIZE",
                "signal_reasoning": "The direction is clear.",
            }
        )


def test_the_dreamer_s_findings_decide_what_the_context_keeps_and_cites(store, settings, mind):
    stub = MessagesStub().start()
    dreamer = Concluding()
    stub.responder = dreamer
    client = anthropic.Anthropic(base_url=stub.url, api_key="test", max_retries=0, timeout=10)
    try:
        llm = AnthropicLLM(client, model="claude-stub-1", prices={"claude-stub-1": (200.0, 1000.0)})
        mind.import_jsonl(APIARY)
        result = Mind(mind.name, store, settings, llm=llm).ruminate(STIMULUS, sender="Ines")
    finally:
        client.close()
        stub.stop()
    step = next(s for s in result.steps if s.kind == "gap" and "dead end" in s.synthesis)
    finding = f"step-{step.number}"
    reasons = result.coverage["relevance"]
    cited = {i for s in result.context.sections for i in s.node_ids}
    # the dead end is dropped (relevance alone keeps it: ATTEMPTED_ON the project) ...
    assert reasons["fail-sugar"] == f"dropped: the exploration set it aside ({finding})"
    assert "fail-sugar" not in cited and "powdered sugar" not in result.context_markdown
    assert "fail-sugar" not in dreamer.compose_prompts[0]
    # ... the established strategy is kept with the step that established it, and cited
    assert reasons["strat-oxalic"].endswith(f"established by {finding}")
    assert f"{finding}: " in dreamer.compose_prompts[0]  # Claude's compose prompt shows the finding
    strategy = result.context.section("strategic_direction")
    assert result.context.validation.composer == "template"  # the draft named someone the mind lacks
    assert "strat-oxalic" in strategy.node_ids and strategy.finding_ids == [finding]
    assert (
        "What rumination established:\n- The oxalic trickle is the treatment these mite counts point to"
        in strategy.text
    )
    assert "Bartholomew" not in result.context_markdown
    # the rest of the on-topic context is still there
    assert {"proj-north-meadow", "cons-window", "conv-ines-mites"} <= cited
