"""``graphmind llm check``: one prompt through the configured provider; faults as one sentence."""

from __future__ import annotations

import json

import pytest

from graphmind.cli.main import main
from graphmind.config import DEFAULT_ANTHROPIC_MODEL
from tests.fixtures.messages_stub import error_reply, json_reply, messages_stub  # noqa: F401 - fixture


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    for name in (
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "GRAPHMIND_LLM",
        "GRAPHMIND_LLM_CASSETTE",
        "GRAPHMIND_LLM_PRICES",
        "GRAPHMIND_ANTHROPIC_MODEL",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GRAPHMIND_HOME", str(tmp_path))


def run(capsys, *args):
    capsys.readouterr()
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_check_offline(capsys):
    code, out, err = run(capsys, "llm", "check", "--json")
    report = json.loads(out)
    assert code == 0 and err == ""
    assert report["provider"] == "offline" and report["ok"] is True and report["calls"] == 1
    assert report["cost_cents"] == 0 and report["input_tokens"] > 0


def test_check_anthropic_through_the_stub(capsys, monkeypatch, messages_stub):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", messages_stub.url)
    monkeypatch.setenv("GRAPHMIND_ANTHROPIC_MODEL", "claude-haiku-4-5")
    messages_stub.script(json_reply({"echo": "graphmind"}, thinking="Echo.", input_tokens=1_000_000, output_tokens=0))
    code, out, _ = run(capsys, "llm", "check")
    assert code == 0 and out.startswith("anthropic (claude-haiku-4-5): ok")  # the model override
    assert "100.0 cents" in out  # a million input tokens at the default 100 cents per million
    assert messages_stub.bodies[0]["model"] == "claude-haiku-4-5"


def test_check_anthropic_uses_the_default_model_and_json_output(capsys, monkeypatch, messages_stub):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", messages_stub.url)
    messages_stub.script(json_reply({"echo": "graphmind"}, thinking="Echo."))
    code, out, err = run(capsys, "llm", "check", "--json")
    assert code == 0 and err == "" and json.loads(out)["model"] == DEFAULT_ANTHROPIC_MODEL
    body = messages_stub.bodies[0]
    assert body["model"] == DEFAULT_ANTHROPIC_MODEL and "tool_choice" not in body and "tools" not in body
    assert body["output_config"]["format"]["type"] == "json_schema"


def test_a_wrong_key_exits_2_with_one_sentence_and_no_traceback(capsys, monkeypatch, messages_stub):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "wrong")
    monkeypatch.setenv("GRAPHMIND_ANTHROPIC_MODEL", "claude-haiku-4-5")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", messages_stub.url)
    messages_stub.script(error_reply(401, "invalid x-api-key"))
    code, out, err = run(capsys, "llm", "check", "--json")
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("graphmind: Anthropic refused the API key (HTTP 401)")
    assert "ANTHROPIC_API_KEY" in json.loads(out)["error"]


def test_record_then_replay(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("GRAPHMIND_LLM_CASSETTE", str(tmp_path / "check.json"))
    monkeypatch.setenv("GRAPHMIND_LLM", "record")
    assert run(capsys, "llm", "check")[0] == 0
    monkeypatch.setenv("GRAPHMIND_LLM", "replay")
    code, out, _ = run(capsys, "llm", "check", "--json")
    report = json.loads(out)
    assert code == 0 and report["provider"] == "replay" and report["model"] == "graphmind-offline-v1"


def test_replay_without_a_cassette_is_a_usage_error(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("GRAPHMIND_LLM", "replay")
    monkeypatch.setenv("GRAPHMIND_LLM_CASSETTE", str(tmp_path / "absent.json"))
    code, _, err = run(capsys, "llm", "check")
    assert code == 2 and "does not exist" in err and err.count("\n") == 1
