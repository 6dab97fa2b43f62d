"""AnthropicLLM through the real SDK against a local Messages API stub: output, faults, usage."""

from __future__ import annotations

import dataclasses
import json
import socket

import anthropic
import pytest
from anthropic import transform_schema
from pydantic import BaseModel, Field

from graphmind.errors import LLMOutputError, ProviderAuthError, ProviderError, ProviderUnavailableError
from graphmind.llm.anthropic import CACHE_MIN_CHARS, DEFAULT_MAX_TOKENS, AnthropicLLM
from graphmind.llm.base import Prompt, Tool, ToolRun
from graphmind.llm.replay import RecordingLLM
from tests.fixtures.messages_stub import (  # noqa: F401 - fixtures
    empty_reply,
    error_reply,
    json_reply,
    malformed_reply,
    message_reply,
    messages_stub,
    redacted_thinking_block,
    refusal_reply,
    stub_client,
    text_block,
    text_reply,
    thinking_block,
    tool_block,
    tool_reply,
    truncated_reply,
)

MODEL = "claude-test"
PRICES = {MODEL: (300.0, 1500.0)}  # cents per million tokens
FORBIDDEN = ("tool_choice", "temperature", "top_p", "top_k", "thinking")  # 400 on current models


class Question(BaseModel):
    text: str


class Answer(BaseModel):
    answer: str
    confidence: float = Field(ge=0.0, le=1.0)


class Lookup(BaseModel):
    name: str


PROMPT = Prompt("test.answer", 2, Question, Answer, "You answer questions.", lambda q: f"Q: {q.text}")
LONG = Prompt("test.long", 1, Question, Answer, "x" * CACHE_MIN_CHARS, lambda q: q.text)
GOOD = {"answer": "Ada", "confidence": 0.9}
BAD = {"answer": "Ada", "confidence": 7}  # fits the API's schema subset, not the model's le=1.0


@pytest.fixture
def llm(stub_client: anthropic.Anthropic) -> AnthropicLLM:
    return AnthropicLLM(stub_client, model=MODEL, prices=PRICES)


def ask(llm: AnthropicLLM, prompt: Prompt = PROMPT) -> Answer:
    return llm.generate(prompt, Question(text="who wrote the first program?"))


def test_generate_asks_for_json_in_the_output_schema_and_nothing_current_models_reject(llm, messages_stub):
    messages_stub.script(json_reply(GOOD))
    assert ask(llm) == Answer(**GOOD)
    body = messages_stub.bodies[0]
    assert body["output_config"] == {
        "format": {"type": "json_schema", "schema": transform_schema(Answer.model_json_schema())}
    }
    assert body["output_config"]["format"]["schema"]["additionalProperties"] is False
    assert not set(FORBIDDEN) & set(body) and "tools" not in body
    assert body["model"] == MODEL and body["max_tokens"] == DEFAULT_MAX_TOKENS
    assert body["messages"] == [{"role": "user", "content": "Q: who wrote the first program?"}]  # no prefill
    assert body["system"] == "You answer questions."


def test_each_call_is_logged_with_its_prompt_model_tokens_and_a_failure_at_info(llm, messages_stub, caplog):
    import logging

    messages_stub.script(json_reply(GOOD, input_tokens=120, output_tokens=30))
    with caplog.at_level(logging.DEBUG, logger="graphmind.llm.anthropic"):
        ask(llm)
    [line] = [r.getMessage() for r in caplog.records if r.name == "graphmind.llm.anthropic"]
    assert line.startswith(f"{PROMPT.key} on {MODEL}: end_turn, 120 tokens in, 30 out"), line
    caplog.clear()
    messages_stub.script(error_reply(400, "bad request"))
    with caplog.at_level(logging.INFO, logger="graphmind.llm.anthropic"), pytest.raises(ProviderError):
        ask(llm)
    assert any(f"{PROMPT.key} on {MODEL} failed" in r.getMessage() for r in caplog.records)


def test_the_stub_answers_400_to_what_current_models_reject(stub_client, messages_stub):
    messages_stub.script(json_reply(GOOD))
    with pytest.raises(anthropic.BadRequestError, match="forced tool_choice.*prefill"):
        stub_client.messages.create(
            model=MODEL,
            max_tokens=100,
            tool_choice={"type": "any"},
            tools=[{"name": "t", "input_schema": {"type": "object"}}],
            messages=[{"role": "user", "content": "q"}, {"role": "assistant", "content": "{"}],
        )
    assert len(messages_stub.replies) == 1  # the scripted reply was not used


@pytest.mark.parametrize("first", [thinking_block(), redacted_thinking_block()], ids=["thinking", "redacted"])
def test_thinking_before_the_json_is_skipped(llm, messages_stub, first):
    halves = text_block('{"answer": "Ada",'), text_block(' "confidence": 0.9}')  # text blocks join
    messages_stub.script(message_reply(first, *halves))
    assert ask(llm) == Answer(**GOOD)
    assert len(messages_stub.requests) == 1


def test_a_wrong_key_is_one_sentence_naming_the_variable(llm, messages_stub):
    messages_stub.script(error_reply(401, "invalid x-api-key"))
    with pytest.raises(ProviderAuthError) as info:
        ask(llm)
    message = str(info.value)
    assert "HTTP 401" in message and "ANTHROPIC_API_KEY" in message and "\n" not in message
    assert message.startswith("Anthropic") and message.count(". ") == 0 and info.value.provider == "anthropic"
    assert info.value.exit_code == 2 and len(messages_stub.requests) == 1  # 401 is not retried


def test_a_refused_permission_is_an_auth_error_too(llm, messages_stub):
    messages_stub.script(error_reply(403))
    with pytest.raises(ProviderAuthError, match="HTTP 403"):
        ask(llm)


def test_rate_limits_past_the_sdk_retry_budget_name_the_provider(llm, messages_stub, stub_client):
    messages_stub.script(*[error_reply(429, "slow down")] * 5)
    with pytest.raises(ProviderUnavailableError) as info:
        ask(llm)
    assert info.value.provider == "anthropic" and info.value.exit_code == 1
    assert "Anthropic" in str(info.value) and "HTTP 429" in str(info.value)
    assert len(messages_stub.requests) == 1 + stub_client.max_retries  # the SDK's retries only
    assert [r.headers["x-stainless-retry-count"] for r in messages_stub.requests] == ["0", "1", "2"]
    assert llm.usage.calls == 0


def test_a_server_error_then_success_is_retried_by_the_sdk(llm, messages_stub):
    messages_stub.script(error_reply(500), json_reply(GOOD))
    assert ask(llm) == Answer(**GOOD)
    assert len(messages_stub.requests) == 2 and llm.usage.calls == 1


def test_server_errors_past_the_budget_are_unavailable(llm, messages_stub):
    messages_stub.script(*[error_reply(529, "overloaded")] * 3)
    with pytest.raises(ProviderUnavailableError, match="HTTP 529"):
        ask(llm)


def test_a_bad_request_is_a_provider_error_not_retried(llm, messages_stub):
    messages_stub.script(error_reply(400, "tool_choice forces a tool, which this model does not support"))
    with pytest.raises(ProviderError, match="does not support") as info:
        ask(llm)
    assert not isinstance(info.value, ProviderUnavailableError) and len(messages_stub.requests) == 1


def test_a_timeout_is_unavailable(messages_stub):
    client = anthropic.Anthropic(base_url=messages_stub.url, api_key="test", max_retries=0, timeout=0.2)
    messages_stub.script(dataclasses.replace(json_reply(GOOD), delay_s=1.0))
    with pytest.raises(ProviderUnavailableError, match="did not answer in time"):
        ask(AnthropicLLM(client, model=MODEL, prices=PRICES))
    client.close()


def test_an_unreachable_server_is_unavailable():
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    client = anthropic.Anthropic(base_url=f"http://127.0.0.1:{port}", api_key="test", max_retries=0)
    with pytest.raises(ProviderUnavailableError, match="could not be reached at 127.0.0.1"):
        ask(AnthropicLLM(client, model=MODEL, prices=PRICES))
    client.close()


def test_invalid_output_is_repaired_once_with_the_validation_error(llm, messages_stub):
    messages_stub.script(json_reply(BAD, thinking="Seven sounds sure."), json_reply(GOOD))
    assert ask(llm) == Answer(**GOOD)
    first, second = messages_stub.bodies
    said, re_ask = second["messages"][1:]
    assert second["messages"][0] == first["messages"][0] and len(second["messages"]) == 3
    assert said["role"] == "assistant" and [b["type"] for b in said["content"]] == ["thinking", "text"]
    assert said["content"][1]["text"] == json.dumps(BAD)
    assert re_ask["role"] == "user" and "confidence" in re_ask["content"]
    assert "less than or equal to 1" in re_ask["content"]
    assert "output_config" in second and "tool_choice" not in second
    assert llm.usage.calls == 2  # the re-ask is recorded too


def test_invalid_output_twice_raises_and_nothing_is_recorded(llm, messages_stub, tmp_path):
    messages_stub.script(json_reply(BAD), json_reply({"answer": 3}))
    recorder = RecordingLLM(llm, tmp_path / "cassette.json")
    with pytest.raises(LLMOutputError) as info:
        recorder.generate(PROMPT, Question(text="q"))
    message = str(info.value)
    assert "Anthropic" in message and PROMPT.key in message and "\n" not in message
    assert info.value.provider == "anthropic" and len(messages_stub.requests) == 2
    assert not (tmp_path / "cassette.json").exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("first", "said"),
    [
        (empty_reply(), "empty"),
        (text_reply("The answer is Ada."), "Invalid JSON"),
        (malformed_reply(), "not valid JSON"),
        (truncated_reply('{"answer": "Ad'), "max_tokens"),
        (json_reply("{not an object"), "Answer"),
    ],
    ids=["empty", "prose", "malformed", "truncated", "string"],
)
def test_an_unusable_reply_is_re_asked_once_saying_what_was_wrong(llm, messages_stub, first, said):
    messages_stub.script(first, json_reply(GOOD))
    assert ask(llm) == Answer(**GOOD)
    last = messages_stub.bodies[1]["messages"][-1]
    assert last["role"] == "user" and "invalid" in str(last["content"]) and said in str(last["content"])


def test_an_empty_reply_twice_says_so(llm, messages_stub):
    messages_stub.script(empty_reply(), empty_reply())
    with pytest.raises(LLMOutputError, match="empty"):
        ask(llm)
    asked = messages_stub.bodies[1]["messages"]
    assert [m["role"] for m in asked] == ["user"]  # no empty assistant turn: the ask joins the user turn
    assert asked[0]["content"][0] == {"type": "text", "text": "Q: who wrote the first program?"}
    assert "empty" in asked[0]["content"][1]["text"]


def test_a_refusal_is_re_asked_without_the_refused_turn(llm, messages_stub):
    messages_stub.script(refusal_reply(), json_reply(GOOD))
    assert ask(llm) == Answer(**GOOD)
    first, second = messages_stub.bodies
    assert second["messages"] == first["messages"]  # the context is reset, as the docs require


def test_a_refusal_twice_is_an_output_error_with_the_explanation(llm, messages_stub):
    messages_stub.script(refusal_reply("Declined for policy."), refusal_reply("Declined for policy."))
    with pytest.raises(LLMOutputError) as info:
        ask(llm)
    assert "refused (Declined for policy.)" in str(info.value) and "\n" not in str(info.value)


def test_malformed_json_twice_is_an_output_error(llm, messages_stub):
    messages_stub.script(malformed_reply(), malformed_reply())
    with pytest.raises(LLMOutputError, match="not valid JSON"):
        ask(llm)
    assert llm.usage.calls == 2 and llm.usage.input_tokens == 0


def test_a_long_system_prompt_is_marked_for_caching(llm, messages_stub):
    messages_stub.script(json_reply(GOOD, cache_write=900), json_reply(GOOD, cache_read=900))
    ask(llm, LONG)
    ask(llm, LONG)
    system = messages_stub.bodies[0]["system"]
    assert system == [{"type": "text", "text": LONG.system, "cache_control": {"type": "ephemeral"}}]
    assert [r.cache_write_tokens for r in llm.usage.records] == [900, 0]
    assert [r.cache_read_tokens for r in llm.usage.records] == [0, 900]


def test_a_short_system_prompt_is_not_cached(llm, messages_stub):
    messages_stub.script(json_reply(GOOD))
    ask(llm)
    assert "cache_control" not in str(messages_stub.bodies[0])


def test_usage_and_cost_are_recorded_per_http_reply(llm, messages_stub):
    messages_stub.script(
        json_reply(BAD, input_tokens=1000, output_tokens=200),
        json_reply(GOOD, input_tokens=1200, output_tokens=100, cache_read=1000),
    )
    ask(llm)
    first, second = llm.usage.records
    assert (first.provider, first.model, first.prompt) == ("anthropic", MODEL, "test.answer@2")
    assert (first.input_tokens, first.output_tokens) == (1000, 200)
    assert (second.input_tokens, second.cache_read_tokens) == (1200, 1000)
    assert first.cost_cents == pytest.approx((1000 * 300 + 200 * 1500) / 1e6)
    assert second.cost_cents == pytest.approx((1200 * 300 + 1000 * 300 * 0.1 + 100 * 1500) / 1e6)
    assert all(r.latency_ms > 0 for r in llm.usage.records)
    assert llm.usage.cost_cents == pytest.approx(first.cost_cents + second.cost_cents)


def lookup_tools(seen: list[str]) -> list[Tool]:
    def find(args: Lookup) -> dict:
        seen.append(args.name)
        return {"name": args.name, "born": 1815}

    return [Tool("find_person", "Find a person node by name.", Lookup, find)]


def test_the_tool_loop_runs_graphmind_tools_then_parses_the_json_answer(llm, messages_stub):
    thought, first_call = thinking_block("I should look Ada up."), tool_block("find_person", {"name": "Ada"})
    hidden, second_call = redacted_thinking_block(), tool_block("find_person", {"name": "Babbage"})
    messages_stub.script(
        message_reply(thought, first_call, stop_reason="tool_use"),
        message_reply(hidden, text_block("And Babbage."), second_call, stop_reason="tool_use"),
        json_reply(GOOD, thinking="Both found."),
    )
    seen: list[str] = []
    run = llm.run_tools(PROMPT, Question(text="who?"), lookup_tools(seen))
    assert isinstance(run, ToolRun) and run.output == Answer(**GOOD)
    assert seen == ["Ada", "Babbage"]
    assert [c.input for c in run.calls] == [{"name": "Ada"}, {"name": "Babbage"}]
    assert run.calls[0].output == {"name": "Ada", "born": 1815}
    bodies = messages_stub.bodies
    assert all([t["name"] for t in b["tools"]] == ["find_person"] for b in bodies)  # no respond tool
    assert all(not set(FORBIDDEN) & set(b) and b["output_config"]["format"]["schema"] for b in bodies)
    assert bodies[1]["messages"][1] == {"role": "assistant", "content": [thought, first_call]}  # unchanged
    result = bodies[1]["messages"][2]["content"][0]
    assert result["type"] == "tool_result" and result["tool_use_id"] == first_call["id"]
    assert "is_error" not in result and '"born": 1815' in result["content"]
    assert bodies[2]["messages"][3]["content"] == [hidden, text_block("And Babbage."), second_call]
    assert len(bodies[2]["messages"]) == 5 and llm.usage.calls == 3


def test_an_invalid_or_unknown_tool_call_goes_back_as_an_error_result(llm, messages_stub):
    messages_stub.script(tool_reply("find_person", {"nom": "Ada"}), tool_reply("nope", {}), json_reply(GOOD))
    seen: list[str] = []
    run = llm.run_tools(PROMPT, Question(text="who?"), lookup_tools(seen))
    assert seen == [] and run.calls == () and run.output == Answer(**GOOD)
    first, second = (b["messages"][-1]["content"][0] for b in messages_stub.bodies[1:])
    assert first["is_error"] is True and "name" in first["content"]
    assert second["is_error"] is True and "no tool named 'nope'" in second["content"]


def test_the_tool_loop_stops_at_max_turns(llm, messages_stub):
    messages_stub.script(*[tool_reply("find_person", {"name": "Ada"})] * 3)
    with pytest.raises(LLMOutputError, match="within 3 turns"):
        llm.run_tools(PROMPT, Question(text="who?"), lookup_tools([]), max_turns=3)
    assert len(messages_stub.requests) == 3
    assert all("tool_choice" not in b for b in messages_stub.bodies)


def test_an_invalid_answer_in_the_loop_is_repaired_once(llm, messages_stub):
    messages_stub.script(tool_reply("find_person", {"name": "Ada"}), json_reply(BAD), json_reply(GOOD))
    run = llm.run_tools(PROMPT, Question(text="who?"), lookup_tools([]))
    assert run.output == Answer(**GOOD) and len(run.calls) == 1
    said, re_ask = messages_stub.bodies[2]["messages"][-2:]
    assert said["role"] == "assistant" and re_ask["role"] == "user" and "confidence" in re_ask["content"]


def test_an_invalid_answer_in_the_loop_twice_is_an_output_error(llm, messages_stub):
    messages_stub.script(json_reply(BAD), tool_reply("find_person", {"name": "Ada"}), text_reply("Ada."))
    with pytest.raises(LLMOutputError, match="failed validation twice"):
        llm.run_tools(PROMPT, Question(text="who?"), lookup_tools([]))
    assert len(messages_stub.requests) == 3


def test_tool_names_must_be_unique(llm):
    tool = lookup_tools([])[0]
    with pytest.raises(ValueError, match="unique"):
        llm.run_tools(PROMPT, Question(text="q"), [tool, tool])


def test_count_tokens_asks_the_messages_token_counter_of_the_model(llm, messages_stub):
    assert llm.count_tokens("x" * 30) == 10  # the stub: one token per started 3 characters
    body = messages_stub.count_requests[0].body
    assert body == {"model": llm.model, "messages": [{"role": "user", "content": "x" * 30}]}
    assert messages_stub.requests == []  # no Messages call, nothing billed
    assert llm.usage.calls == 0
