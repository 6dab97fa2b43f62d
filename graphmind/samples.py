"""The files bundled with graphmind: the demo minds, usable from Python and the README."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from graphmind.errors import NotFoundError

DEMO_FILES = ("felix.jsonl", "b01-felix.jsonl", "topics.jsonl")
"""Felix (a backend agent chasing a race condition), the P02 seed's B01 scenario, and Felix's
topic entries and threads (what the digests read)."""


def demo_file(name: str = "felix.jsonl") -> Path:
    """The path of a bundled demo file, ready for ``Mind.import_jsonl``."""
    if name not in DEMO_FILES:
        raise NotFoundError(f"no demo file {name!r}; the demo files are {', '.join(DEMO_FILES)}")
    return Path(str(resources.files("graphmind") / "demo" / name))
