"""AnthropicLLM.generate_many: one Message Batch through the real SDK, against the local stub."""

from __future__ import annotations

import anthropic
import pytest

from graphmind.errors import ProviderError, ProviderUnavailableError
from graphmind.llm.anthropic import AnthropicLLM
from graphmind.llm.base import BatchLLM
from tests.fixtures.messages_stub import error_reply, json_reply, messages_stub, stub_client  # noqa: F401 - fixtures
from tests.unit.test_llm_anthropic import GOOD, MODEL, PRICES, PROMPT, Answer, Question

QUESTIONS = [Question(text=f"question {i}") for i in range(3)]


@pytest.fixture
def llm(stub_client: anthropic.Anthropic) -> AnthropicLLM:
    return AnthropicLLM(stub_client, model=MODEL, prices=PRICES)


def answer(i: int) -> dict:
    return {"answer": f"answer {i}", "confidence": 0.5}


def test_one_batch_carries_the_requests_generate_would_send_and_answers_in_order(llm, messages_stub):
    messages_stub.batch_polls = 2
    messages_stub.script(*(json_reply(answer(i), input_tokens=1000, output_tokens=100) for i in range(3)))
    waits = []
    out = llm.generate_many(PROMPT, QUESTIONS, poll_s=0.01, on_wait=lambda: waits.append(1))
    assert out == [Answer(**answer(i)) for i in range(3)]
    assert len(messages_stub.batches) == 1 and len(waits) == 2  # polled until the batch ended
    messages_stub.script(json_reply(GOOD))
    llm.generate(PROMPT, QUESTIONS[0])
    direct = messages_stub.bodies[-1]
    assert [b for b in messages_stub.bodies[:3]] == [
        {**direct, "messages": [{"role": "user", "content": f"Q: question {i}"}]} for i in range(3)
    ]


def test_batch_usage_is_recorded_per_request_at_half_price(llm, messages_stub):
    messages_stub.script(*(json_reply(answer(i), input_tokens=1000, output_tokens=100) for i in range(3)))
    llm.generate_many(PROMPT, QUESTIONS, poll_s=0.01)
    full = (1000 * 300.0 + 100 * 1500.0) / 1_000_000
    assert [r.cost_cents for r in llm.usage.records] == pytest.approx([full / 2] * 3)
    assert llm.usage.calls == 3 and {r.prompt for r in llm.usage.records} == {PROMPT.key}


def test_a_request_the_batch_could_not_answer_is_an_error_in_its_place(llm, messages_stub):
    messages_stub.script(json_reply(answer(0)), error_reply(400, "bad request"), json_reply(answer(2)))
    out = llm.generate_many(PROMPT, QUESTIONS, poll_s=0.01)
    assert out[0] == Answer(**answer(0)) and out[2] == Answer(**answer(2))
    assert isinstance(out[1], ProviderError) and "errored" in str(out[1])


def test_an_invalid_answer_gets_a_direct_call_with_generates_repair(llm, messages_stub):
    bad = {"answer": "x", "confidence": 7}
    messages_stub.script(
        json_reply(answer(0)), json_reply(bad), json_reply(answer(2)), json_reply(bad), json_reply(answer(1))
    )  # the direct call, then its repair
    out = llm.generate_many(PROMPT, QUESTIONS, poll_s=0.01)
    assert out == [Answer(**answer(i)) for i in range(3)]
    assert len(messages_stub.requests) == 5 and "invalid" in str(messages_stub.bodies[-1]["messages"][-1])


def test_a_batch_that_does_not_end_in_time_is_canceled_and_fails_clearly(llm, messages_stub):
    messages_stub.batch_polls = 10_000
    messages_stub.script(*(json_reply(answer(i)) for i in range(3)))
    with pytest.raises(ProviderUnavailableError, match="did not end within"):
        llm.generate_many(PROMPT, QUESTIONS, poll_s=0.01, timeout_s=0.05)
    assert next(iter(messages_stub.batches.values()))["canceled"]


def test_only_the_anthropic_provider_offers_batches():
    from graphmind.llm.offline import OfflineLLM

    assert issubclass(AnthropicLLM, BatchLLM) and not isinstance(OfflineLLM(), BatchLLM)
