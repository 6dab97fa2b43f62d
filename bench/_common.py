"""Shared set-up for benchmarks: a real Neo4j (NEO4J_URI, else the local one) and a scratch mind."""

from __future__ import annotations

import contextlib
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

from graphmind.app import init_database, open_store
from graphmind.config import Settings
from graphmind.launcher import LocalNeo4j
from graphmind.store import GraphStore


@contextlib.contextmanager
def bench_store() -> Iterator[tuple[GraphStore, Settings]]:
    """A store with the schema applied; starts (and later stops) the local Neo4j if needed."""
    settings = Settings.from_env()
    started = local_neo4j_stopped(settings)
    if started:
        LocalNeo4j(settings).start()
    store = open_store(settings)
    try:
        init_database(store, settings)
        yield store, settings
    finally:
        store.close()
        if started:
            LocalNeo4j(settings).stop()


def local_neo4j_stopped(settings: Settings) -> bool:
    """True when no NEO4J_URI is set and the local Neo4j is not running (bench_store starts it)."""
    return not settings.neo4j_uri and not LocalNeo4j(settings).status().running


def scratch_mind(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def write_results(name: str, block: str) -> None:
    """Put ``block`` between the ``<!-- name:begin -->`` and ``<!-- name:end -->`` markers of
    bench/RESULTS.md (appended with its markers the first time)."""
    results = Path(__file__).resolve().parent / "RESULTS.md"
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    text = results.read_text()
    marked = f"{begin}\n{block.strip()}\n{end}"
    if begin in text and end in text:
        text = text.split(begin, 1)[0] + marked + text.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + marked + "\n"
    results.write_text(text)


def write_table(name: str, script: str, lines: list[str], what: str) -> None:
    """``write_results`` of a table made by ``bench/<script>``, under the command that made it
    (its arguments but ``--write``) and ``what`` (the conditions, in parentheses)."""
    flags = " ".join(a for a in sys.argv[1:] if a != "--write")
    command = f"python bench/{script} {flags}".strip()
    write_results(name, f"`{command}` ({what}):\n\n" + "\n".join(lines))
