"""What the wander REPL takes and gives: its limits, the calls the code made, and the result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ReplLimits:
    """What one execution may use."""

    cpu_seconds: int = 5
    memory_mb: int = 512  # RLIMIT_AS of the child; its interpreter takes about 15 MB of it
    wall_seconds: float = 15.0
    output_chars: int = 10_000
    max_calls: int = 50  # calls to the parent's functions per execute


@dataclass(frozen=True)
class ReplCall:
    """One call the code made to a parent function."""

    name: str
    args: list
    kwargs: dict


@dataclass(frozen=True)
class ReplResult:
    """What became of one execution."""

    success: bool
    stdout: str
    error: str | None
    final: Any | None
    calls: tuple[ReplCall, ...]
    blocked: bool
    dropped: tuple[str, ...] = ()
    """Top-level names the code bound to something other than JSON data: not kept."""
    layers: tuple[str, ...] = ()
    """The sandbox layers (of :data:`LAYERS`) that held for this execute."""
