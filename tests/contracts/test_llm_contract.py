"""One contract over every LLM provider: Anthropic (real SDK on the stub), offline and replay.

The prompt is the registry's ``llm.check``. The stub answers like Claude Sonnet 5.5: it thinks
first, echoes the word as JSON in the requested output format and, when offered
``count_words``, calls it once before answering; it rejects what that model rejects (a forced
tool choice, sampling parameters, prefill). The replay case replays a cassette recorded in the
test from that Anthropic run.
"""

from __future__ import annotations

from collections.abc import Iterator

import anthropic
import pytest
from pydantic import BaseModel

from graphmind.llm.anthropic import AnthropicLLM
from graphmind.llm.base import LLM, Tool, ToolCall, ToolRun
from graphmind.llm.offline import OfflineLLM
from graphmind.llm.replay import RecordingLLM, ReplayLLM
from graphmind.prompts import get_prompt
from graphmind.prompts.llm import CheckInput, CheckOutput
from tests.fixtures.messages_stub import MessagesStub, Reply, Request, error_reply, json_reply, tool_reply

CHECK = get_prompt("llm.check")
WORDS = ("graphmind", "Neo4j")
MODEL = "claude-contract"


class Text(BaseModel):
    text: str


COUNT_WORDS = Tool("count_words", "Count the words of a text.", Text, lambda t: {"words": len(t.text.split())})


def model_on_the_stub(request: Request) -> Reply:
    """Echo the word as JSON when asked for JSON output; in a tool loop, call count_words once first."""
    messages = request.body["messages"]
    word = messages[0]["content"].rsplit(": ", 1)[-1]
    schema = request.body.get("output_config", {}).get("format", {}).get("schema", {})
    if "echo" not in schema.get("properties", {}):
        return error_reply(400, "the stub model only answers requests for the check's JSON output")
    offered = {t["name"] for t in request.body.get("tools", [])}
    if "count_words" in offered and len(messages) == 1:
        return tool_reply("count_words", {"text": word}, thinking="Count first.", input_tokens=40, output_tokens=8)
    return json_reply({"echo": word}, thinking="Echo it.", input_tokens=50, output_tokens=6)


def anthropic_llm(stub: MessagesStub) -> Iterator[AnthropicLLM]:
    stub.responder = model_on_the_stub
    client = anthropic.Anthropic(base_url=stub.url, api_key="test", max_retries=0, timeout=10)
    yield AnthropicLLM(client, model=MODEL, prices={MODEL: (300.0, 1500.0)})
    client.close()


def record_session(llm: LLM) -> None:
    """Every call the contract makes, in the order it makes them."""
    for word in WORDS:
        for _ in range(2):
            llm.generate(CHECK, CheckInput(word=word))
            llm.run_tools(CHECK, CheckInput(word=word), [COUNT_WORDS])


@pytest.fixture(params=["anthropic", "offline", "replay"])
def llm(request, tmp_path) -> Iterator[LLM]:
    if request.param == "offline":
        yield OfflineLLM()
        return
    stub = MessagesStub().start()
    try:
        hosted = anthropic_llm(stub)
        if request.param == "anthropic":
            yield from hosted
            return
        recorder = RecordingLLM(next(hosted), tmp_path / "contract.json")
        record_session(recorder)
        recorder.close()
        yield ReplayLLM(recorder.path)
    finally:
        stub.stop()


def test_it_is_an_llm(llm):
    assert isinstance(llm, LLM) and llm.provider in ("anthropic", "offline", "replay")


@pytest.mark.parametrize("word", WORDS)
def test_generate_returns_the_prompts_output_type(llm, word):
    output = llm.generate(CHECK, CheckInput(word=word))
    assert type(output) is CheckOutput and output.echo == word


def test_every_call_records_usage(llm):
    llm.generate(CHECK, CheckInput(word=WORDS[0]))
    assert llm.usage.calls >= 1
    record = llm.usage.records[-1]
    assert (record.provider, record.prompt) == (llm.provider, CHECK.key) and record.model
    assert record.input_tokens > 0 and record.output_tokens > 0 and record.cost_cents >= 0
    assert llm.usage.cost_cents == pytest.approx(sum(r.cost_cents for r in llm.usage.records))


def test_run_tools_returns_a_tool_run(llm):
    run = llm.run_tools(CHECK, CheckInput(word=WORDS[1]), [COUNT_WORDS])
    assert isinstance(run, ToolRun) and type(run.output) is CheckOutput and run.output.echo == WORDS[1]
    assert all(isinstance(c, ToolCall) and c.tool == "count_words" for c in run.calls)
    assert llm.usage.records[-1].prompt == CHECK.key


def test_same_inputs_same_output(llm):
    first = llm.generate(CHECK, CheckInput(word=WORDS[0]))
    assert llm.generate(CHECK, CheckInput(word=WORDS[0])) == first
    runs = [llm.run_tools(CHECK, CheckInput(word=WORDS[0]), [COUNT_WORDS]) for _ in range(2)]
    assert runs[0] == runs[1]


def test_count_tokens_grows_with_the_text_and_bills_nothing(llm):
    short, long = llm.count_tokens("race condition"), llm.count_tokens("race condition " * 40)
    assert 0 < short < long
    assert llm.usage.calls == 0
