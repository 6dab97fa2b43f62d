"""make_llm: the provider GRAPHMIND_LLM asks for, with the client built from the settings."""

from __future__ import annotations

import pytest

from graphmind.config import Settings
from graphmind.errors import ConfigError
from graphmind.llm.anthropic import AnthropicLLM
from graphmind.llm.factory import make_llm
from graphmind.llm.offline import OfflineLLM
from graphmind.llm.replay import RecordingLLM, ReplayLLM


def settings_for(tmp_path, **env: str) -> Settings:
    return Settings.from_env({"GRAPHMIND_HOME": str(tmp_path), "GRAPHMIND_CACHE": str(tmp_path), **env})


def test_auto_without_a_key_is_offline(tmp_path):
    llm = make_llm(settings_for(tmp_path))
    assert isinstance(llm, OfflineLLM) and llm.provider == "offline"


def test_auto_with_a_key_is_anthropic_with_the_client_built_from_the_settings(tmp_path):
    llm = make_llm(
        settings_for(
            tmp_path,
            ANTHROPIC_API_KEY="sk-test",
            ANTHROPIC_BASE_URL="http://127.0.0.1:9",
            GRAPHMIND_ANTHROPIC_MODEL="claude-x",
            GRAPHMIND_LLM_TIMEOUT="7",
            GRAPHMIND_LLM_MAX_RETRIES="4",
        )
    )
    assert isinstance(llm, AnthropicLLM) and llm.provider == "anthropic" and llm.model == "claude-x"
    client = llm._client
    assert str(client.base_url).startswith("http://127.0.0.1:9") and client.api_key == "sk-test"
    assert client.timeout == 7 and client.max_retries == 4


def test_anthropic_without_a_key_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY"):
        make_llm(settings_for(tmp_path, GRAPHMIND_LLM="anthropic"))


def test_offline_ignores_a_key(tmp_path):
    llm = make_llm(settings_for(tmp_path, GRAPHMIND_LLM="offline", ANTHROPIC_API_KEY="k"))
    assert isinstance(llm, OfflineLLM)


@pytest.mark.parametrize("provider", ["replay", "record"])
def test_replay_and_record_need_a_cassette(tmp_path, provider):
    with pytest.raises(ConfigError, match="GRAPHMIND_LLM_CASSETTE"):
        make_llm(settings_for(tmp_path, GRAPHMIND_LLM=provider))


def test_replay_reads_the_cassette_setting(tmp_path):
    cassette = str(tmp_path / "c.json")
    llm = make_llm(settings_for(tmp_path, GRAPHMIND_LLM="replay", GRAPHMIND_LLM_CASSETTE=cassette))
    assert isinstance(llm, ReplayLLM) and llm.path == tmp_path / "c.json"


def test_record_wraps_anthropic_when_a_key_is_set_else_offline(tmp_path):
    cassette = str(tmp_path / "c.json")
    offline = make_llm(settings_for(tmp_path, GRAPHMIND_LLM="record", GRAPHMIND_LLM_CASSETTE=cassette))
    hosted = make_llm(
        settings_for(tmp_path, GRAPHMIND_LLM="record", GRAPHMIND_LLM_CASSETTE=cassette, ANTHROPIC_API_KEY="k")
    )
    assert isinstance(offline, RecordingLLM) and offline.provider == "offline"
    assert isinstance(hosted, RecordingLLM) and hosted.provider == "anthropic"
