"""Rendering of results and errors for the terminal, in one place."""

from __future__ import annotations

import json
import sys
from typing import Any

import click


def emit(payload: dict[str, Any], as_json: bool, text: str) -> None:
    """JSON on stdout under ``--json``, else the human text."""
    if as_json:
        click.echo(json.dumps(payload, default=str, ensure_ascii=False))
    else:
        click.echo(text)


MAX_SENTENCE = 1_000
"""The longest error sentence the CLI prints, in characters."""


def error(sentence: str, as_json: bool) -> None:
    """One sentence on stderr (and ``{"error": ...}`` on stdout under ``--json``)."""
    sentence = " ".join(sentence.split())
    if len(sentence) > MAX_SENTENCE:  # a 10 kB bad value must not come back whole (issue 25, item 4)
        sentence = sentence[: MAX_SENTENCE - 1] + "…"
    click.echo(f"graphmind: {sentence}", err=True)
    if as_json:
        click.echo(json.dumps({"error": sentence}))


def table(rows: dict[str, int], heading: str, notes: dict[str, str] | None = None) -> str:
    """Counts under a heading, one per line, each followed by its note if ``notes`` has one."""
    if not rows:
        return f"{heading}: none"
    width = max(len(k) for k in rows)
    notes = notes or {}
    lines = [f"{heading}:"] + [f"  {k.ljust(width)}  {v:>8,}{notes.get(k, '')}" for k, v in rows.items()]
    return "\n".join(lines)


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()
