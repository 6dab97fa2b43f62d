"""Settings, read from the environment in one function and nowhere else."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from graphmind.errors import ConfigError

DEFAULT_NEO4J_VERSION = "5.26.30"
DEFAULT_BROWSER_VERSION = "5.24.0"


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
    neo4j_password: str | None = None
    neo4j_database: str = "neo4j"
    bolt_port: int = 7687
    http_port: int = 7474
    heap_size: str = "1g"
    pagecache_size: str = "512m"
    neo4j_version: str = DEFAULT_NEO4J_VERSION
    browser_version: str = DEFAULT_BROWSER_VERSION
    start_timeout_s: float = 120.0
    import_batch_size: int = 5000
    import_workers: int = 2
    embedding_dimensions: int = 384
    max_property_bytes: int = 1_000_000

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
            import_batch_size=_int(env, "GRAPHMIND_IMPORT_BATCH", 5000, 1, 100_000),
            import_workers=_int(env, "GRAPHMIND_IMPORT_WORKERS", 2, 1, 16),
            embedding_dimensions=_int(env, "GRAPHMIND_EMBEDDING_DIM", 384, 2, 4096),
            max_property_bytes=_int(env, "GRAPHMIND_MAX_PROPERTY_BYTES", 1_000_000, 1, 2**31),
        )


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
