"""BoundedAnthropic through the real SDK against the local Messages API stub: a server that
asks for long waits (``Retry-After: 3600``) makes a call fail at once with one sentence,
instead of sleeping; short waits are still the SDK's retries."""

from __future__ import annotations

import dataclasses
import time

import pytest

from graphmind.cli.main import main
from graphmind.config import Settings
from graphmind.errors import ProviderUnavailableError
from graphmind.llm.anthropic import AnthropicLLM
from graphmind.llm.anthropic_client import BoundedAnthropic
from graphmind.llm.base import Prompt
from graphmind.llm.factory import make_llm
from tests.fixtures.messages_stub import error_reply, json_reply, messages_stub  # noqa: F401 - fixture
from tests.unit.test_llm_anthropic import GOOD, MODEL, PRICES, PROMPT, Answer, Question


def rate_limited(retry_after: str) -> object:
    """A 429 whose only wait header is ``retry-after`` (the stub's default asks for 1 ms)."""
    reply = error_reply(429, "rate limited")
    headers = {k: v for k, v in reply.headers.items() if not k.startswith("retry-after")}
    return dataclasses.replace(reply, headers={**headers, "retry-after": retry_after})


@pytest.fixture
def slept() -> list[float]:
    return []


def bounded_llm(stub, slept: list[float], *, max_wait_s: float = 60, max_retries: int = 2) -> AnthropicLLM:
    client = BoundedAnthropic(
        base_url=stub.url,
        api_key="test",
        max_retries=max_retries,
        timeout=10,
        max_wait_s=max_wait_s,
        sleep=slept.append,
    )
    return AnthropicLLM(client, model=MODEL, prices=PRICES)


def ask(llm: AnthropicLLM, prompt: Prompt = PROMPT) -> Answer:
    return llm.generate(prompt, Question(text="who wrote the first program?"))


def test_a_retry_after_of_an_hour_fails_at_once_with_one_sentence(messages_stub, slept):
    messages_stub.script(*[rate_limited("3600")] * 3)
    with pytest.raises(ProviderUnavailableError) as info:
        ask(bounded_llm(messages_stub, slept))
    message = str(info.value)
    assert slept == [] and len(messages_stub.requests) == 1  # no sleep, no retry
    assert message == (
        "Anthropic answered HTTP 429 and its next retry would wait 3600 s, more than "
        "GRAPHMIND_LLM_MAX_WAIT allows (60 s per call); try again later."
    )
    assert info.value.provider == "anthropic"


def test_the_waits_of_one_call_add_up_to_at_most_the_bound(messages_stub, slept):
    messages_stub.script(*[rate_limited("40")] * 3)
    with pytest.raises(ProviderUnavailableError, match="wait 40 s after 40 s of retries, more than"):
        ask(bounded_llm(messages_stub, slept))
    assert slept == [40.0] and len(messages_stub.requests) == 2


def test_short_waits_are_still_the_sdks_retries(messages_stub, slept):
    llm = bounded_llm(messages_stub, slept)
    messages_stub.script(rate_limited("20"), rate_limited("20"), json_reply(GOOD))
    assert ask(llm) == Answer(**GOOD) and slept == [20.0, 20.0]
    messages_stub.script(rate_limited("20"), json_reply(GOOD))  # the next call has its own budget
    assert ask(llm) == Answer(**GOOD) and slept == [20.0, 20.0, 20.0]
    messages_stub.script(*[rate_limited("1")] * 3)  # past the retry budget: the SDK's sentence
    with pytest.raises(ProviderUnavailableError, match="HTTP 429: rate limited on all 3 attempts"):
        ask(llm)
    assert slept[3:] == [1.0, 1.0] and len(messages_stub.requests) == 8


def test_a_bound_of_zero_never_sleeps(messages_stub, slept):
    messages_stub.script(*[error_reply(529, "overloaded")] * 3)
    with pytest.raises(ProviderUnavailableError, match="HTTP 529 and its next retry would wait 0 s"):
        ask(bounded_llm(messages_stub, slept, max_wait_s=0))
    assert slept == [] and len(messages_stub.requests) == 1


def test_the_factory_builds_the_bounded_client_from_the_settings(tmp_path):
    settings = Settings.from_env(
        {
            "GRAPHMIND_HOME": str(tmp_path),
            "GRAPHMIND_CACHE": str(tmp_path),
            "ANTHROPIC_API_KEY": "k",
            "GRAPHMIND_LLM_MAX_WAIT": "15",
        }
    )
    client = make_llm(settings).client
    assert isinstance(client, BoundedAnthropic) and client.max_wait_s == 15
    assert client.with_options(timeout=3).max_wait_s == 15
    assert Settings.from_env({"GRAPHMIND_HOME": str(tmp_path)}).llm_max_wait_s == 60


def test_the_cli_fails_at_once_with_one_sentence(capsys, monkeypatch, messages_stub, tmp_path):
    slept: list[float] = []
    real_sleep = time.sleep
    monkeypatch.setattr(time, "sleep", lambda s: slept.append(s) if s > 0 else real_sleep(0))  # the SDK's too
    for name in ("GRAPHMIND_LLM", "GRAPHMIND_LLM_MAX_WAIT", "GRAPHMIND_LLM_MAX_RETRIES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GRAPHMIND_HOME", str(tmp_path))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", messages_stub.url)
    messages_stub.script(*[rate_limited("3600")] * 3)
    capsys.readouterr()
    code = main(["llm", "check"])
    err = capsys.readouterr().err
    assert code == ProviderUnavailableError.exit_code == 1 and slept == [] and len(messages_stub.requests) == 1
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("graphmind: Anthropic answered HTTP 429 and its next retry would wait 3600 s")
