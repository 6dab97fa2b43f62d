"""Settings, read from the environment in one function and nowhere else."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from graphmind.errors import ConfigError

DEFAULT_NEO4J_VERSION = "5.26.30"
DEFAULT_BROWSER_VERSION = "5.24.0"
DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-5-5"
DEFAULT_WANDER_CHEAP_MODEL = "claude-haiku-4-5"
LLM_PROVIDERS = ("auto", "offline", "anthropic", "replay", "record")
EMBEDDERS = ("minilm", "hashing")
LOG_LEVELS = ("debug", "info", "warning", "error")
# US cents per million tokens (input, output), Anthropic's list prices as published on
# platform.claude.com (models overview pages, read 2026-11-22); GRAPHMIND_LLM_PRICES (JSON)
# overrides or adds. A model missing here is recorded with its tokens and a cost of 0.
DEFAULT_LLM_PRICES: dict[str, tuple[float, float]] = {
    "claude-sonnet-5-5": (200.0, 1000.0),
    "claude-sonnet-5": (200.0, 1000.0),
    "claude-opus-5-5": (400.0, 2000.0),
    "claude-opus-5": (500.0, 2500.0),
    "claude-haiku-4-5": (100.0, 500.0),
}


@dataclass(frozen=True)
class Settings:
    """Everything graphmind reads from the environment.

    With no ``neo4j_uri``, graphmind talks to the local Neo4j that ``graphmind neo4j start``
    runs under ``home`` and reads its generated password from ``home/neo4j/password``.
    The Neo4j jars are shared by every home, under ``cache_dir``.
    """

    home: Path
    cache_dir: Path
    neo4j_uri: str | None = None
    neo4j_user: str = "neo4j"
    neo4j_password: str | None = field(default=None, repr=False)
    neo4j_database: str = "neo4j"
    bolt_port: int = 7687
    http_port: int = 7474
    heap_size: str = "1g"
    pagecache_size: str = "512m"
    neo4j_version: str = DEFAULT_NEO4J_VERSION
    browser_version: str = DEFAULT_BROWSER_VERSION
    start_timeout_s: float = 120.0
    neo4j_fail_after_s: float = 20.0
    import_batch_size: int = 5000
    import_workers: int = 2
    import_overlap: bool = True
    embedding_dimensions: int = 384
    max_property_bytes: int = 1_000_000
    llm_provider: str = "auto"
    anthropic_api_key: str | None = field(default=None, repr=False)
    anthropic_base_url: str | None = None
    anthropic_model: str = DEFAULT_ANTHROPIC_MODEL
    llm_timeout_s: float = 60.0
    llm_max_retries: int = 2
    llm_max_wait_s: float = 60.0
    llm_cassette: Path | None = None
    llm_prices: Mapping[str, tuple[float, float]] = field(default_factory=lambda: dict(DEFAULT_LLM_PRICES))
    embedder: str = "minilm"
    embed_batch_size: int = 64
    recall_cache_mb: int = 512
    recall_query_cache: int = 256
    recall_partition_min: int = 50_000
    capture_flush_ms: int = 20
    wander_cheap_model: str = DEFAULT_WANDER_CHEAP_MODEL
    wander_event_log: Path | None = None
    nats_url: str | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Build settings from ``env`` (default: ``os.environ``)."""
        env = os.environ if env is None else env
        return cls(
            home=_home(env),
            cache_dir=_cache(env),
            neo4j_uri=env.get("NEO4J_URI") or None,
            neo4j_user=env.get("NEO4J_USER", "neo4j"),
            neo4j_password=env.get("NEO4J_PASSWORD") or None,
            neo4j_database=env.get("NEO4J_DATABASE", "neo4j"),
            bolt_port=_int(env, "GRAPHMIND_BOLT_PORT", 7687, 1, 65535),
            http_port=_int(env, "GRAPHMIND_HTTP_PORT", 7474, 1, 65535),
            heap_size=_memory(env, "GRAPHMIND_NEO4J_HEAP", "1g"),
            pagecache_size=_memory(env, "GRAPHMIND_NEO4J_PAGECACHE", "512m"),
            neo4j_version=env.get("GRAPHMIND_NEO4J_VERSION", DEFAULT_NEO4J_VERSION),
            browser_version=env.get("GRAPHMIND_BROWSER_VERSION", DEFAULT_BROWSER_VERSION),
            start_timeout_s=float(_int(env, "GRAPHMIND_START_TIMEOUT", 120, 5, 3600)),
            neo4j_fail_after_s=float(_int(env, "GRAPHMIND_NEO4J_FAIL_AFTER", 20, 1, 3600)),
            import_batch_size=_int(env, "GRAPHMIND_IMPORT_BATCH", 5000, 1, 100_000),
            import_workers=_int(env, "GRAPHMIND_IMPORT_WORKERS", 2, 1, 16),
            import_overlap=_choice(env, "GRAPHMIND_IMPORT_OVERLAP", "on", ("on", "off")) == "on",
            embedding_dimensions=_int(env, "GRAPHMIND_EMBEDDING_DIM", 384, 2, 4096),
            max_property_bytes=_int(env, "GRAPHMIND_MAX_PROPERTY_BYTES", 1_000_000, 1, 2**31),
            llm_provider=_choice(env, "GRAPHMIND_LLM", "auto", LLM_PROVIDERS),
            anthropic_api_key=env.get("ANTHROPIC_API_KEY") or None,
            anthropic_base_url=env.get("ANTHROPIC_BASE_URL") or None,
            anthropic_model=env.get("GRAPHMIND_ANTHROPIC_MODEL") or DEFAULT_ANTHROPIC_MODEL,
            llm_timeout_s=float(_int(env, "GRAPHMIND_LLM_TIMEOUT", 60, 1, 3600)),
            llm_max_retries=_int(env, "GRAPHMIND_LLM_MAX_RETRIES", 2, 0, 10),
            llm_max_wait_s=float(_int(env, "GRAPHMIND_LLM_MAX_WAIT", 60, 0, 3600)),
            llm_cassette=_path(env, "GRAPHMIND_LLM_CASSETTE"),
            llm_prices=_prices(env),
            embedder=_choice(env, "GRAPHMIND_EMBEDDER", "minilm", EMBEDDERS),
            embed_batch_size=_int(env, "GRAPHMIND_EMBED_BATCH", 64, 1, 4096),
            recall_cache_mb=_int(env, "GRAPHMIND_RECALL_CACHE_MB", 512, 0, 1_048_576),
            recall_query_cache=_int(env, "GRAPHMIND_RECALL_QUERY_CACHE", 256, 0, 1_000_000),
            recall_partition_min=_int(env, "GRAPHMIND_RECALL_PARTITION_MIN", 50_000, 0, 1_000_000_000),
            capture_flush_ms=_int(env, "GRAPHMIND_CAPTURE_FLUSH_MS", 20, 0, 1000),
            wander_cheap_model=env.get("GRAPHMIND_WANDER_CHEAP_MODEL") or DEFAULT_WANDER_CHEAP_MODEL,
            wander_event_log=_path(env, "GRAPHMIND_WANDER_EVENT_LOG"),
            nats_url=env.get("NATS_URL") or None,
        )


def log_level(env: Mapping[str, str] | None = None) -> str | None:
    """GRAPHMIND_LOG_LEVEL (debug, info, warning, error), or None when it is not set: read on
    its own, so the CLI can set up logging before it knows whether the other settings are valid."""
    env = os.environ if env is None else env
    return _choice(env, "GRAPHMIND_LOG_LEVEL", "warning", LOG_LEVELS) if env.get("GRAPHMIND_LOG_LEVEL") else None


def _home(env: Mapping[str, str]) -> Path:
    if env.get("GRAPHMIND_HOME"):
        return Path(env["GRAPHMIND_HOME"]).expanduser().resolve()
    from platformdirs import user_data_dir

    return Path(user_data_dir("graphmind", appauthor=False))


def _cache(env: Mapping[str, str]) -> Path:
    if env.get("GRAPHMIND_CACHE"):
        return Path(env["GRAPHMIND_CACHE"]).expanduser().resolve()
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("graphmind", appauthor=False))


def _int(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {raw!r}.") from None
    if not low <= value <= high:
        raise ConfigError(f"{name} must be between {low} and {high}, not {value}.")
    return value


def _memory(env: Mapping[str, str], name: str, default: str) -> str:
    raw = env.get(name, default).strip().lower()
    if not raw[:-1].isdigit() or raw[-1] not in "kmg":
        raise ConfigError(f"{name} must be a size like 512m or 2g, not {raw!r}.")
    return raw


def _choice(env: Mapping[str, str], name: str, default: str, allowed: tuple[str, ...]) -> str:
    raw = (env.get(name) or default).strip().lower()
    if raw not in allowed:
        raise ConfigError(f"{name} must be one of {', '.join(allowed)}, not {raw!r}.")
    return raw


def _path(env: Mapping[str, str], name: str) -> Path | None:
    raw = env.get(name)
    return Path(raw).expanduser().resolve() if raw else None


def _prices(env: Mapping[str, str]) -> dict[str, tuple[float, float]]:
    prices = dict(DEFAULT_LLM_PRICES)
    raw = env.get("GRAPHMIND_LLM_PRICES")
    if not raw:
        return prices
    try:
        extra = json.loads(raw)
        for model, pair in extra.items():
            input_cents, output_cents = (float(v) for v in pair)
            prices[str(model)] = (input_cents, output_cents)
    except (ValueError, TypeError, AttributeError):
        raise ConfigError(
            'GRAPHMIND_LLM_PRICES must be JSON like {"model": [input_cents, output_cents]} per million tokens.'
        ) from None
    return prices
