"""Rumination through the real ``anthropic`` SDK against the Messages stub, scripted to answer
the way Claude does: tools in its own order (not the one the prompt suggests, several in one
turn, follow_edges on what came back), a first-person monologue with "I" mid-sentence in
abstract wording, and an early [CRYSTALLIZE]."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import anthropic
import pytest

from graphmind.llm.anthropic import AnthropicLLM
from graphmind.mind import Mind
from graphmind.prompts.ruminate import GAP_QUERIES
from tests.fixtures.messages_stub import MessagesStub, Reply, Request, json_reply, message_reply, tool_block, tool_reply

pytestmark = pytest.mark.integration

B01 = Path(str(resources.files("graphmind") / "demo" / "b01-felix.jsonl"))
STIMULUS = "Hey Felix, the race condition is back."
MONOLOGUE = (
    "Something here keeps tugging at me, and the longer I sit with it the less it feels like "
    "a fresh problem; what I found sits heavier than I expected, and I notice I want to "
    "look once more before I let it settle."
)
DRAFT = {
    "identity": "Felix, runtime engineer focused on validation testing. Partner to Nicolas for 8 months.",
    "current_situation": f'Nicolas says: "{STIMULUS}"',
    "relevant_history": "Nov 15, 2024: stimulus_integrator race condition, 10 messages.",
    "strategic_direction": "Approach: Systematic debugging for concurrency issues (85%).",
    "emotional_resonance": "I feel frustration (0.8/1.0), held by determination.",
    "technical_context": "Component: stimulus_integrator.py.",
    "constraints": "DEADLINE (critical): Nov 25, 2024 23:59 UTC.",
    "cited_ids": ["nicolas"],
}


class ClaudeLike:
    """A Dreamer that reads the gap but queries in its own order.

    Steps count from the first the Dreamer is asked (the engine's own first look and depth
    read come before it). Step 1: one tool that is not the priority gap's, then an answer. Step 2: the priority
    gap's tool and the one before it in one turn (in that reversed order), then follow_edges
    on the first memory that came back, then an answer. Step 3: [CRYSTALLIZE] without a query.
    Guard re-asks get an answer at once, with the step's signal."""

    def __init__(self) -> None:
        self.priorities: dict[int, str | None] = {}
        self.prompts: list[str] = []
        self.first: int | None = None

    def __call__(self, request: Request) -> Reply:
        body = request.body
        if "tools" not in body:  # the Context Object's draft
            return json_reply(DRAFT)
        prompt = next(m["content"] for m in body["messages"] if m["role"] == "user")
        self.prompts.append(prompt)
        number = int(re.search(r"Step (\d+) of at most", prompt).group(1))
        self.first = number if self.first is None else self.first
        step = number - self.first + 1
        priority = re.search(r"The graph has (\w+) nodes but", prompt)
        priority = priority.group(1) if priority else None
        calls = [
            b for m in body["messages"] if m["role"] == "assistant" for b in m["content"] if b.get("type") == "tool_use"
        ]
        if "[GUARD RAIL ACTIVATION]" in prompt or "didn't explore" in prompt:
            return self._answer("CRYSTALLIZE" if step >= 3 else "CONTINUE", [])
        if step == 1:
            self.priorities.setdefault(1, priority)
            if not calls:
                other = next(name for t, name in GAP_QUERIES.items() if t != priority)
                return tool_reply(other, {"query": "what presses on this"}, thinking="Pressure first.")
            return self._answer("CONTINUE", _returned(body))
        if step == 2:
            self.priorities.setdefault(2, priority)
            if not calls:
                names = [GAP_QUERIES[priority], *(n for t, n in GAP_QUERIES.items() if t != priority)]
                return message_reply(tool_block(names[1], {}), tool_block(names[0], {}), stop_reason="tool_use")
            found = _returned(body)
            if len(calls) == 2 and found:
                return tool_reply("follow_edges", {"node_id": found[0]})
            return self._answer("CONTINUE", found)
        return self._answer("CRYSTALLIZE", [])

    @staticmethod
    def _answer(signal: str, found: list[str]) -> Reply:
        return json_reply(
            {
                "finding": {
                    "node_type": None,
                    "gap_explored": "what surfaced",
                    "query": "",
                    "result": ", ".join(found) or "None",
                    "synthesis": "The pieces lean on each other more than they first seemed to.",
                    "memory_ids": found[:3],
                    "confidence": 0.7,
                },
                "gap_update": {"composite_gap_score": 0.2},
                "internal_monologue": MONOLOGUE,
                "signal": signal,
                "signal_reasoning": "It feels settled enough." if signal == "CRYSTALLIZE" else "Still pulling.",
            }
        )


def _returned(body: dict) -> list[str]:
    """The ids every tool result of this conversation returned, in order."""
    ids: list[str] = []
    for message in body["messages"]:
        if message["role"] != "user" or isinstance(message["content"], str):
            continue
        for block in message["content"]:
            if block.get("type") == "tool_result":
                content = block["content"]
                text = content if isinstance(content, str) else "".join(c.get("text", "") for c in content)
                ids += [row["id"] for row in json.loads(text)]
    return list(dict.fromkeys(ids))


def test_a_claude_like_dreamer_through_the_sdk(store, settings, mind):
    stub = MessagesStub().start()
    claude = ClaudeLike()
    stub.responder = claude
    client = anthropic.Anthropic(base_url=stub.url, api_key="test", max_retries=0, timeout=10)
    try:
        llm = AnthropicLLM(client, model="claude-stub-1", prices={"claude-stub-1": (200.0, 1000.0)})
        mind.import_jsonl(B01)
        result = Mind(mind.name, store, settings, llm=llm).ruminate(STIMULUS, sender="Nicolas")
    finally:
        client.close()
        stub.stop()
    gap_steps = [s for s in result.steps if s.kind == "gap"]
    first, second = gap_steps[0], gap_steps[1]
    # before anything is queried, the prompt says so; it never claims an empty result
    assert "Nothing has been queried for this step yet" in claude.prompts[0]
    assert not any("Query results for" in p for p in claude.prompts)
    # the priority gap is explored only by its own query: step 1 queried another type
    priority = claude.priorities[1]
    assert priority is not None and GAP_QUERIES[priority] not in first.tools
    assert first.node_type != priority and claude.priorities[2] == priority
    assert (
        second.tools[:2]
        == [n for n in GAP_QUERIES.values() if n != GAP_QUERIES[priority]][:1] + [GAP_QUERIES[priority]]
        and "follow_edges" in second.tools
    )
    assert second.node_type == priority and result.coverage["types"][priority]["explored"]
    # "I" mid-sentence is not an invented name
    assert result.guard_rails["hallucination"] == 0
    assert all(s.hallucinated == [] for s in result.steps)
    # the early [CRYSTALLIZE] is honoured: the gaps were closed enough
    assert result.stopped_reason == "crystallized" and len(gap_steps) == 3
    assert result.context.validation.valid


def test_cli_ruminate_through_the_stub(cli_env, cli_mind, capsys, monkeypatch):
    """The same Dreamer through ``graphmind ruminate`` (the CLI picks Claude from the key)."""
    from .helpers import run_cli

    stub = MessagesStub().start()
    stub.responder = ClaudeLike()
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test")
    monkeypatch.setenv("GRAPHMIND_LLM", "anthropic")
    monkeypatch.setenv("GRAPHMIND_LLM_MAX_RETRIES", "0")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", stub.url)
    try:
        code, out, err = run_cli(capsys, "import", str(B01), "--mind", cli_mind)
        assert code == 0, err
        code, out, err = run_cli(capsys, "ruminate", STIMULUS, "--mind", cli_mind, "--sender", "Nicolas", "--json")
    finally:
        stub.stop()
    assert code == 0, err
    payload = json.loads(out)
    assert payload["stopped_reason"] == "crystallized"
    assert all(s["hallucinated"] == [] for s in payload["steps"])
    assert [s["kind"] for s in payload["steps"]].count("gap") == 3
