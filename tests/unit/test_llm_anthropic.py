"""AnthropicLLM through the real SDK against a local Messages API stub: output, faults, usage."""

from __future__ import annotations

import dataclasses
import socket

import anthropic
import pytest
from pydantic import BaseModel, Field

from graphmind.errors import LLMOutputError, ProviderAuthError, ProviderError, ProviderUnavailableError
from graphmind.llm.anthropic import CACHE_MIN_CHARS, AnthropicLLM
from graphmind.llm.base import Prompt, Tool, ToolRun
from graphmind.llm.replay import RecordingLLM
from tests.fixtures.messages_stub import (  # noqa: F401 - fixtures
    empty_reply,
    error_reply,
    malformed_reply,
    message_reply,
    messages_stub,
    respond_reply,
    stub_client,
    text_block,
    text_reply,
    tool_block,
    tool_reply,
)

MODEL = "claude-test"
PRICES = {MODEL: (300.0, 1500.0)}  # cents per million tokens


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
BAD = {"answer": "Ada", "confidence": 7}


@pytest.fixture
def llm(stub_client: anthropic.Anthropic) -> AnthropicLLM:
    return AnthropicLLM(stub_client, model=MODEL, prices=PRICES)


def ask(llm: AnthropicLLM, prompt: Prompt = PROMPT) -> Answer:
    return llm.generate(prompt, Question(text="who wrote the first program?"))


def test_generate_forces_the_respond_tool_and_returns_the_validated_output(llm, messages_stub):
    messages_stub.script(respond_reply(GOOD))
    assert ask(llm) == Answer(**GOOD)
    body = messages_stub.bodies[0]
    assert body["model"] == MODEL and body["tool_choice"] == {"type": "tool", "name": "respond"}
    assert body["tools"][0]["input_schema"] == Answer.model_json_schema()
    assert body["messages"] == [{"role": "user", "content": "Q: who wrote the first program?"}]
    assert body["system"] == "You answer questions."


def test_a_wrong_key_is_one_sentence_naming_the_variable(llm, messages_stub):
    messages_stub.script(error_reply(401, "invalid x-api-key"))
    with pytest.raises(ProviderAuthError) as info:
        ask(llm)
    message = str(info.value)
    assert "HTTP 401" in message and "ANTHROPIC_API_KEY" in message and "\n" not in message
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
    messages_stub.script(error_reply(500), respond_reply(GOOD))
    assert ask(llm) == Answer(**GOOD)
    assert len(messages_stub.requests) == 2 and llm.usage.calls == 1


def test_server_errors_past_the_budget_are_unavailable(llm, messages_stub):
    messages_stub.script(*[error_reply(529, "overloaded")] * 3)
    with pytest.raises(ProviderUnavailableError, match="HTTP 529"):
        ask(llm)


def test_a_bad_request_is_a_provider_error_not_retried(llm, messages_stub):
    messages_stub.script(error_reply(400, "max_tokens too large"))
    with pytest.raises(ProviderError, match="max_tokens too large") as info:
        ask(llm)
    assert not isinstance(info.value, ProviderUnavailableError) and len(messages_stub.requests) == 1


def test_a_timeout_is_unavailable(messages_stub):
    client = anthropic.Anthropic(base_url=messages_stub.url, api_key="test", max_retries=0, timeout=0.2)
    messages_stub.script(dataclasses.replace(respond_reply(GOOD), delay_s=1.0))
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
    messages_stub.script(respond_reply(BAD), respond_reply(GOOD))
    assert ask(llm) == Answer(**GOOD)
    first, second = messages_stub.bodies
    bad_call = second["messages"][1]["content"][0]
    result = second["messages"][2]["content"][0]
    assert second["messages"][1]["role"] == "assistant" and bad_call["input"] == BAD
    assert result["type"] == "tool_result" and result["is_error"] is True
    assert result["tool_use_id"] == bad_call["id"] and "confidence" in result["content"]
    assert llm.usage.calls == 2  # the re-ask is recorded too


def test_invalid_output_twice_raises_and_the_caller_gets_nothing(llm, messages_stub, tmp_path):
    messages_stub.script(respond_reply(BAD), respond_reply({"answer": 3}))
    recorder = RecordingLLM(llm, tmp_path / "cassette.json")
    with pytest.raises(LLMOutputError) as info:
        recorder.generate(PROMPT, Question(text="q"))
    message = str(info.value)
    assert "Anthropic" in message and PROMPT.key in message and "\n" not in message
    assert info.value.provider == "anthropic" and len(messages_stub.requests) == 2
    assert not (tmp_path / "cassette.json").exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("first", [empty_reply(), text_reply("The answer is Ada."), malformed_reply(),
                                   respond_reply("{not json")], ids=["empty", "text", "malformed", "string"])
def test_an_unusable_reply_is_re_asked_once(llm, messages_stub, first):
    messages_stub.script(first, respond_reply(GOOD))
    assert ask(llm) == Answer(**GOOD)
    last = messages_stub.bodies[1]["messages"][-1]
    assert last["role"] == "user" and "invalid" in str(last["content"])


def test_an_empty_reply_twice_says_so(llm, messages_stub):
    messages_stub.script(empty_reply(), empty_reply())
    with pytest.raises(LLMOutputError, match="empty"):
        ask(llm)


def test_malformed_json_twice_is_an_output_error(llm, messages_stub):
    messages_stub.script(malformed_reply(), malformed_reply())
    with pytest.raises(LLMOutputError, match="not valid JSON"):
        ask(llm)
    assert llm.usage.calls == 2 and llm.usage.input_tokens == 0


def test_a_long_system_prompt_is_marked_for_caching(llm, messages_stub):
    messages_stub.script(respond_reply(GOOD, cache_write=900), respond_reply(GOOD, cache_read=900))
    ask(llm, LONG)
    ask(llm, LONG)
    system = messages_stub.bodies[0]["system"]
    assert system == [{"type": "text", "text": LONG.system, "cache_control": {"type": "ephemeral"}}]
    assert [r.cache_write_tokens for r in llm.usage.records] == [900, 0]
    assert [r.cache_read_tokens for r in llm.usage.records] == [0, 900]


def test_a_short_system_prompt_is_not_cached(llm, messages_stub):
    messages_stub.script(respond_reply(GOOD))
    ask(llm)
    assert "cache_control" not in str(messages_stub.bodies[0])


def test_usage_and_cost_are_recorded_per_http_call(llm, messages_stub):
    messages_stub.script(respond_reply(BAD, input_tokens=1000, output_tokens=200),
                         respond_reply(GOOD, input_tokens=1200, output_tokens=100, cache_read=1000))
    ask(llm)
    first, second = llm.usage.records
    assert (first.provider, first.model, first.prompt) == ("anthropic", MODEL, "test.answer@2")
    assert (first.input_tokens, first.output_tokens) == (1000, 200)
    assert first.cost_cents == pytest.approx((1000 * 300 + 200 * 1500) / 1e6)
    assert second.cost_cents == pytest.approx((1200 * 300 + 1000 * 300 * 0.1 + 100 * 1500) / 1e6)
    assert all(r.latency_ms > 0 for r in llm.usage.records)
    assert llm.usage.cost_cents == pytest.approx(first.cost_cents + second.cost_cents)


def lookup_tools(seen: list[str]) -> list[Tool]:
    def find(args: Lookup) -> dict:
        seen.append(args.name)
        return {"name": args.name, "born": 1815}

    return [Tool("find_person", "Find a person node by name.", Lookup, find)]


def test_the_tool_loop_runs_graphmind_tools_then_responds(llm, messages_stub):
    messages_stub.script(
        tool_reply("find_person", {"name": "Ada"}),
        message_reply(text_block("And Babbage."), tool_block("find_person", {"name": "Babbage"})),
        respond_reply(GOOD))
    seen: list[str] = []
    run = llm.run_tools(PROMPT, Question(text="who?"), lookup_tools(seen))
    assert isinstance(run, ToolRun) and run.output == Answer(**GOOD)
    assert seen == ["Ada", "Babbage"]
    assert [c.input for c in run.calls] == [{"name": "Ada"}, {"name": "Babbage"}]
    assert run.calls[0].output == {"name": "Ada", "born": 1815}
    bodies = messages_stub.bodies
    assert [t["name"] for t in bodies[0]["tools"]] == ["find_person", "respond"]
    assert bodies[0]["tool_choice"] == {"type": "any"}
    result = bodies[1]["messages"][-1]["content"][0]
    assert result["type"] == "tool_result" and "is_error" not in result
    assert '"born": 1815' in result["content"]
    assert len(bodies[2]["messages"]) == 5 and llm.usage.calls == 3


def test_an_invalid_tool_input_goes_back_as_an_error_result(llm, messages_stub):
    messages_stub.script(tool_reply("find_person", {"nom": "Ada"}), tool_reply("nope", {}),
                         respond_reply(GOOD))
    seen: list[str] = []
    run = llm.run_tools(PROMPT, Question(text="who?"), lookup_tools(seen))
    assert seen == [] and run.calls == ()
    first, second = (b["messages"][-1]["content"][0] for b in messages_stub.bodies[1:])
    assert first["is_error"] is True and "name" in first["content"]
    assert second["is_error"] is True and "no tool named 'nope'" in second["content"]


def test_the_tool_loop_stops_at_max_turns_and_forces_respond_last(llm, messages_stub):
    messages_stub.script(*[tool_reply("find_person", {"name": "Ada"})] * 3)
    with pytest.raises(LLMOutputError, match="within 3 turns"):
        llm.run_tools(PROMPT, Question(text="who?"), lookup_tools([]), max_turns=3)
    choices = [b["tool_choice"] for b in messages_stub.bodies]
    assert choices == [{"type": "any"}, {"type": "any"}, {"type": "tool", "name": "respond"}]


def test_an_invalid_respond_in_the_loop_is_sent_back(llm, messages_stub):
    messages_stub.script(respond_reply(BAD), respond_reply(GOOD))
    run = llm.run_tools(PROMPT, Question(text="who?"), lookup_tools([]))
    assert run.output == Answer(**GOOD)
    assert messages_stub.bodies[1]["messages"][-1]["content"][0]["is_error"] is True


def test_a_tool_may_not_shadow_respond(llm):
    with pytest.raises(ValueError, match="respond"):
        llm.run_tools(PROMPT, Question(text="q"), [Tool("respond", "", Lookup, lambda a: a)])
