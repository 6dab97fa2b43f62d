"""Shared helpers for the integration tests."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from graphmind.cli.main import main

DEMO = Path(str(resources.files("graphmind") / "demo" / "felix.jsonl"))


def write_jsonl(path: Path, items: list[dict[str, Any] | str]) -> Path:
    path.write_text("".join((i if isinstance(i, str) else json.dumps(i)) + "\n" for i in items))
    return path


def node(label: str, node_id: str, **props: Any) -> dict[str, Any]:
    return {"type": "node", "label": label, "id": node_id, "properties": props}


def edge(rel: str, start: str, end: str, **props: Any) -> dict[str, Any]:
    return {"type": "edge", "rel": rel, "from": start, "to": end, "properties": props}


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    """Run ``graphmind ARGS`` in-process; return (exit code, stdout, stderr)."""
    capsys.readouterr()
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def graph_snapshot(mind) -> list[str]:
    """Everything a mind holds, as its sorted export lines."""
    return sorted(mind.export_jsonl())
