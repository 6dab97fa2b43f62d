"""``make_llm``: the provider ``Settings.llm_provider`` asks for, built in one place.

auto       Anthropic when ANTHROPIC_API_KEY is set, else offline
offline    the deterministic offline provider
anthropic  Anthropic; a missing key is a ConfigError
replay     answers from GRAPHMIND_LLM_CASSETTE
record     Anthropic (or offline without a key), recorded to GRAPHMIND_LLM_CASSETTE
"""

from __future__ import annotations

from pathlib import Path

from graphmind.config import Settings
from graphmind.errors import ConfigError
from graphmind.llm.base import LLM


def make_llm(settings: Settings) -> LLM:
    """The LLM provider the settings ask for (no network call is made here)."""
    choice = settings.llm_provider
    if choice == "offline" or (choice == "auto" and not settings.anthropic_api_key):
        return _offline()
    if choice in ("auto", "anthropic"):
        return make_anthropic(settings)
    from graphmind.llm.replay import RecordingLLM, ReplayLLM

    if choice == "replay":
        return ReplayLLM(_cassette(settings))
    if choice == "record":
        inner = make_anthropic(settings) if settings.anthropic_api_key else _offline()
        return RecordingLLM(inner, _cassette(settings))
    raise ConfigError(f"GRAPHMIND_LLM={choice!r} is not a provider graphmind knows.")


def make_anthropic(settings: Settings) -> LLM:
    """``AnthropicLLM`` on a new SDK client (the SDK retries and times out per the settings;
    its waits between retries add up to at most GRAPHMIND_LLM_MAX_WAIT per call)."""
    if not settings.anthropic_api_key:
        raise ConfigError("GRAPHMIND_LLM=anthropic needs ANTHROPIC_API_KEY to be set.")
    from graphmind.llm.anthropic import AnthropicLLM
    from graphmind.llm.anthropic_client import BoundedAnthropic

    client = BoundedAnthropic(
        api_key=settings.anthropic_api_key,
        base_url=settings.anthropic_base_url,
        timeout=settings.llm_timeout_s,
        max_retries=settings.llm_max_retries,
        max_wait_s=settings.llm_max_wait_s,
    )
    return AnthropicLLM(client, model=settings.anthropic_model, prices=dict(settings.llm_prices))


def _offline() -> LLM:
    from graphmind.llm.offline import OfflineLLM

    return OfflineLLM()


def _cassette(settings: Settings) -> Path:
    if settings.llm_cassette is None:
        raise ConfigError(
            f"GRAPHMIND_LLM={settings.llm_provider} needs GRAPHMIND_LLM_CASSETTE (the cassette file) to be set."
        )
    return settings.llm_cassette
