"""The LLM fault matrix (issue 25, item 2): every fault the Messages API can show, through the
local stub and the real ``anthropic`` SDK, on the CLI verbs that call the LLM.

For each fault: a non-zero exit with one sentence and no traceback (or, for a passing retry,
a success); at most ``GRAPHMIND_LLM_MAX_RETRIES + 1`` requests (the SDK's retries, one layer);
and for a rumination, the mind's graph unchanged by a failed run. Timeouts are set low so a
case takes seconds."""

from __future__ import annotations

import dataclasses
import json
import socket
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import pytest

from graphmind.cli.main import main
from tests.fixtures.messages_stub import (  # noqa: F401 - fixture
    Reply,
    error_reply,
    json_reply,
    malformed_reply,
    messages_stub,
    refusal_reply,
    tool_reply,
    truncated_reply,
)

SAMPLE = Path(str(resources.files("graphmind") / "demo" / "b01-felix.jsonl"))
MAX_RETRIES = 1
TIMEOUT_S = 1
TOOL_LOOP_BOUND = 20
TRANSPORT_FAULTS = {"401", "429 retry-after", "500", "529 overloaded", "slow beyond timeout"}


def _slow() -> Reply:
    return dataclasses.replace(json_reply({"echo": "graphmind"}), delay_s=TIMEOUT_S + 2)


# name -> (reply factory, retried by the SDK)
FAULTS: dict[str, tuple[Callable[[], Reply], bool]] = {
    "401": (lambda: error_reply(401, "invalid x-api-key"), False),
    "429 retry-after": (lambda: error_reply(429, "rate limited"), True),
    "500": (lambda: error_reply(500, "internal"), True),
    "529 overloaded": (lambda: error_reply(529, "overloaded"), True),
    "slow beyond timeout": (_slow, True),
    "malformed json": (malformed_reply, False),
    "max_tokens truncation": (lambda: truncated_reply('{"echo": "gra'), False),
    "refusal": (refusal_reply, False),
    "unknown tool": (lambda: tool_reply("no_such_tool", {"x": 1}), False),
    "bad tool arguments": (lambda: tool_reply("answer", {"echo": 42, "extra": []}), False),
}


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", url)
    monkeypatch.setenv("GRAPHMIND_LLM", "anthropic")
    monkeypatch.setenv("GRAPHMIND_LLM_MAX_RETRIES", str(MAX_RETRIES))
    monkeypatch.setenv("GRAPHMIND_LLM_TIMEOUT", str(TIMEOUT_S))
    monkeypatch.setenv("GRAPHMIND_LLM_MAX_WAIT", "5")


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, without_stub_noise(captured.err)


def without_stub_noise(err: str) -> str:
    """``err`` without what the stub's own server thread prints (in-process, it shares stderr)
    when the client hangs up on a slow reply: socketserver's dashed 'Exception occurred' block."""
    kept, inside = [], False
    for line in err.splitlines(keepends=True):
        if line.startswith("-" * 40):
            inside = not inside
            continue
        if not inside:
            kept.append(line)
    return "".join(kept)


def one_sentence_failure(code: int, out: str, err: str, *, as_json: bool) -> str | None:
    """What is wrong with a failed run's output (None: a non-zero exit and one clean sentence)."""
    if code == 0:
        return "exit 0"
    if "Traceback" in out + err:
        return "a traceback"
    lines = [ln for ln in err.splitlines() if ln.strip()]
    if as_json:
        try:
            return None if json.loads(out).get("error") else "no error in the JSON"
        except (ValueError, AttributeError):
            return f"stdout is not one JSON error: {out[:120]!r}"
    return None if len(lines) == 1 else f"{len(lines)} lines on stderr: {lines[:3]}"


def test_the_output_check_can_fail() -> None:
    assert one_sentence_failure(0, "", "", as_json=False) == "exit 0"
    assert one_sentence_failure(1, "", "Traceback (most recent call last):\n  x\n", as_json=False)
    assert one_sentence_failure(1, "", "a\nb\n", as_json=False)
    assert one_sentence_failure(1, "", "the provider failed.\n", as_json=False) is None
    noisy = "-" * 40 + "\nException occurred during processing\nTraceback\n" + "-" * 40 + "\ngraphmind: failed.\n"
    assert without_stub_noise(noisy) == "graphmind: failed.\n"
    assert "Traceback" in without_stub_noise("Traceback (most recent call last):\n")


@pytest.mark.parametrize("fault", list(FAULTS))
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_llm_check_under_a_fault(
    fault: str, as_json: bool, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, messages_stub
) -> None:
    make, retried = FAULTS[fault]
    _env(monkeypatch, messages_stub.url)
    messages_stub.script(*[make() for _ in range(MAX_RETRIES + 2)])
    code, out, err = _cli(capsys, "llm", "check", *(["--json"] if as_json else []))
    assert one_sentence_failure(code, out, err, as_json=as_json) is None, (code, out, err)
    sent = len(messages_stub.requests)
    assert 1 <= sent <= MAX_RETRIES + 1
    if retried:
        assert sent == MAX_RETRIES + 1, "a retryable fault should use the SDK's retries, no more"


def test_connection_refused(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _env(monkeypatch, f"http://127.0.0.1:{_closed_port()}")
    code, out, err = _cli(capsys, "llm", "check")
    assert one_sentence_failure(code, out, err, as_json=False) is None, (code, out, err)


@pytest.mark.parametrize("fault", ["429 retry-after", "529 overloaded", "500"])
def test_a_transient_fault_then_an_answer_succeeds_and_counts_one_call(
    fault: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, messages_stub
) -> None:
    _env(monkeypatch, messages_stub.url)
    messages_stub.script(FAULTS[fault][0](), json_reply({"echo": "graphmind"}, input_tokens=10, output_tokens=3))
    code, out, err = _cli(capsys, "llm", "check", "--json")
    assert code == 0, err
    payload = json.loads(out)
    assert payload["ok"] and payload["calls"] == 1 and payload["input_tokens"] == 10
    assert len(messages_stub.requests) == 2


@pytest.mark.integration
@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_rumination_under_a_fault_writes_nothing(
    fault: str, cli_env: dict[str, str], cli_mind: str, capsys, monkeypatch, messages_stub
) -> None:
    code, _, err = _cli(capsys, "import", str(SAMPLE), "--mind", cli_mind)
    assert code == 0, err
    code, before, err = _cli(capsys, "export", "--mind", cli_mind)
    assert code == 0, err
    _env(monkeypatch, messages_stub.url)
    make, _ = FAULTS[fault]
    messages_stub.script(*[make() for _ in range(10)])
    code, out, err = _cli(capsys, "ruminate", "the race condition is back", "--mind", cli_mind)
    assert one_sentence_failure(code, out, err, as_json=False) is None, (code, out[-300:], err)
    # a transport fault ends the run after the SDK's retries; an unreadable answer or a bad tool call
    # is a step of the rumination's own loop (answered as a tool error, re-asked): within its step budget
    transport = fault in TRANSPORT_FAULTS
    assert len(messages_stub.requests) <= (MAX_RETRIES + 1 if transport else TOOL_LOOP_BOUND)
    monkeypatch.setenv("GRAPHMIND_LLM", "offline")
    code, after, err = _cli(capsys, "export", "--mind", cli_mind)
    assert code == 0
    changed = sorted(set(map(_structure, after.splitlines())) ^ set(map(_structure, before.splitlines())))
    assert changed == [], [_short(c) for c in changed]


def _short(line: str) -> str:
    row = json.loads(line)
    props = {k: v for k, v in row.get("properties", {}).items() if k != "embedding"}
    return json.dumps({**row, "properties": props})[:400]


def _structure(line: str) -> str:
    """An export line without its embedding (a rumination embeds memories that lack one first:
    derived data, not structure)."""
    row = json.loads(line)
    props = {k: v for k, v in row.get("properties", {}).items() if not k.startswith("embedding")}
    return json.dumps({**row, "properties": props}, sort_keys=True)
