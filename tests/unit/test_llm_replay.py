"""RecordingLLM writes cassettes atomically; ReplayLLM answers from them, offline, in order."""

from __future__ import annotations

import itertools
import json

import pytest
from pydantic import BaseModel

from graphmind.errors import ConfigError, LLMOutputError, NotFoundError, ProviderError
from graphmind.llm.anthropic import AnthropicLLM
from graphmind.llm.base import LLM, Prompt, Tool, ToolCall
from graphmind.llm.offline import OfflineLLM
from graphmind.llm.replay import RecordingLLM, ReplayLLM, inputs_hash
from tests.fixtures.messages_stub import json_reply, messages_stub, stub_client, tool_reply  # noqa: F401


class Note(BaseModel):
    text: str
    tags: list[str] = []


class Summary(BaseModel):
    summary: str
    n: int = 0


PROMPT = Prompt("test.summarise", 3, Note, Summary, "Summarise.", lambda n: n.text)
NOTE = Note(text="the cat sat", tags=["b", "a"])


def counting_behaviour():
    counter = itertools.count(1)

    def behaviour(note: Note, tools) -> Summary:
        for tool in tools:
            tool.call(tool.input_type(text=note.text))
        return Summary(summary=note.text.upper(), n=next(counter))

    return behaviour


def recorder(tmp_path) -> RecordingLLM:
    inner = OfflineLLM(behaviours={PROMPT.name: counting_behaviour()})
    return RecordingLLM(inner, tmp_path / "run.cassette.json")


def echo_tool(seen: list[str]) -> Tool:
    def call(args: Note) -> dict:
        seen.append(args.text)
        return {"words": len(args.text.split())}

    return Tool("count_words", "Count words.", Note, call)


def test_both_wrappers_satisfy_the_protocol(tmp_path):
    assert isinstance(recorder(tmp_path), LLM) and isinstance(ReplayLLM(tmp_path / "x.json"), LLM)


def test_a_recorded_run_replays_offline_with_the_same_outputs(tmp_path):
    rec = recorder(tmp_path)
    recorded = rec.generate(PROMPT, NOTE)
    replay = ReplayLLM(rec.path)
    assert replay.generate(PROMPT, NOTE) == recorded == Summary(summary="THE CAT SAT", n=1)
    usage = replay.usage.records[0]
    assert (usage.provider, usage.model, usage.prompt) == ("replay", "graphmind-offline-v1", PROMPT.key)
    assert usage.input_tokens == rec.usage.records[0].input_tokens > 0
    assert usage.cost_cents == 0 and usage.latency_ms == 0


def test_the_cassette_is_written_after_each_call_and_atomically(tmp_path):
    rec = recorder(tmp_path)
    rec.generate(PROMPT, NOTE)
    data = json.loads(rec.path.read_text())
    assert data["version"] == 1 and len(data["calls"]) == 1
    call = data["calls"][0]
    assert call["kind"] == "generate" and call["prompt"] == "test.summarise@3"
    assert call["inputs_sha256"] == inputs_hash(NOTE) and call["inputs"] == NOTE.model_dump()
    assert call["output"] == {"summary": "THE CAT SAT", "n": 1} and call["usage"][0]["provider"] == "offline"
    rec.generate(PROMPT, NOTE)
    rec.close()
    assert len(json.loads(rec.path.read_text())["calls"]) == 2
    assert [p.name for p in tmp_path.iterdir()] == ["run.cassette.json"]  # no temp files left


def test_identical_calls_replay_in_recorded_order(tmp_path):
    rec = recorder(tmp_path)
    outputs = [rec.generate(PROMPT, NOTE).n for _ in range(3)]
    replay = ReplayLLM(rec.path)
    assert [replay.generate(PROMPT, NOTE).n for _ in range(3)] == outputs == [1, 2, 3]
    with pytest.raises(ProviderError, match="no recorded generate call"):
        replay.generate(PROMPT, NOTE)


def test_inputs_are_matched_by_their_canonical_json(tmp_path):
    rec = recorder(tmp_path)
    rec.generate(PROMPT, Note.model_validate_json('{"tags": ["b", "a"], "text": "the cat sat"}'))
    assert ReplayLLM(rec.path).generate(PROMPT, NOTE).n == 1
    assert inputs_hash(NOTE) != inputs_hash(Note(text="the cat sat", tags=["a", "b"]))


def test_a_call_not_in_the_cassette_is_one_clear_sentence(tmp_path):
    rec = recorder(tmp_path)
    rec.generate(PROMPT, NOTE)
    with pytest.raises(ProviderError) as info:
        ReplayLLM(rec.path).generate(PROMPT, Note(text="another"))
    message = str(info.value)
    assert str(rec.path) in message and PROMPT.key in message and "GRAPHMIND_LLM=record" in message
    assert info.value.provider == "replay" and "\n" not in message


def test_run_tools_replays_the_recorded_calls_without_running_the_tools(tmp_path):
    rec = recorder(tmp_path)
    seen: list[str] = []
    recorded = rec.run_tools(PROMPT, NOTE, [echo_tool(seen)])
    call = ToolCall("count_words", {"text": "the cat sat", "tags": []}, {"words": 3})
    assert seen == ["the cat sat"] and recorded.calls == (call,)
    replayed = ReplayLLM(rec.path).run_tools(PROMPT, NOTE, [echo_tool(seen)])
    assert replayed.output == recorded.output and replayed.calls == recorded.calls
    assert seen == ["the cat sat"]  # the graph is not touched on replay


def test_a_failed_call_is_not_recorded(tmp_path):
    def broken(note, tools):
        raise ProviderError("boom", provider="offline")

    rec = RecordingLLM(OfflineLLM(behaviours={PROMPT.name: broken}), tmp_path / "c.json")
    with pytest.raises(ProviderError):
        rec.generate(PROMPT, NOTE)
    assert not rec.path.exists()


def test_a_missing_cassette_is_not_found_and_read_lazily(tmp_path):
    replay = ReplayLLM(tmp_path / "absent.json")  # constructing does no I/O
    with pytest.raises(NotFoundError, match="does not exist"):
        replay.generate(PROMPT, NOTE)


@pytest.mark.parametrize("text", ["{not json", '{"version": 99, "calls": []}', "[]"])
def test_a_corrupt_cassette_is_a_config_error(tmp_path, text):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(ConfigError):
        ReplayLLM(path).generate(PROMPT, NOTE)


def test_an_output_that_no_longer_fits_the_prompt_is_an_output_error(tmp_path):
    rec = recorder(tmp_path)
    rec.generate(PROMPT, NOTE)
    data = json.loads(rec.path.read_text())
    data["calls"][0]["output"] = {"summary": 5}
    rec.path.write_text(json.dumps(data))
    with pytest.raises(LLMOutputError, match="re-record"):
        ReplayLLM(rec.path).generate(PROMPT, NOTE)


def test_an_anthropic_run_with_thinking_records_outputs_and_replays(tmp_path, messages_stub, stub_client):
    messages_stub.script(
        tool_reply("count_words", {"text": "the cat sat"}, thinking="Count the words.", input_tokens=30),
        json_reply({"summary": "A cat sat.", "n": 3}, thinking="Three words.", input_tokens=45),
    )
    rec = RecordingLLM(AnthropicLLM(stub_client, model="claude-test", prices={}), tmp_path / "a.json")
    seen: list[str] = []
    recorded = rec.run_tools(PROMPT, NOTE, [echo_tool(seen)])
    assert recorded.output == Summary(summary="A cat sat.", n=3) and seen == ["the cat sat"]
    cassette = rec.path.read_text()
    assert "signature" not in cassette and "Count the words." not in cassette  # no thinking is kept
    call = json.loads(cassette)["calls"][0]
    assert [u["input_tokens"] for u in call["usage"]] == [30, 45]
    assert call["usage"][0]["model"] == "claude-test"
    replay = ReplayLLM(rec.path)
    assert replay.run_tools(PROMPT, NOTE, [echo_tool(seen)]) == recorded and seen == ["the cat sat"]
    assert [r.input_tokens for r in replay.usage.records] == [30, 45]
