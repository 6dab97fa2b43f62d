"""Shared helpers for the integration tests."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from graphmind.cli.main import main
from graphmind.errors import StoreError
from tests.fixtures.messages_stub import MessagesStub

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


TECHNIQUES = {
    "Naked Single": "R{r}C{c} has only one candidate left, {d}; placed {d} in the cell",
    "Hidden Single": "digit {d} has only one possible position in row {r}, at column {c}; placed it there",
    "Pointing Pair": "candidates of {d} in box {r} are confined to row {c}; eliminated {d} from the rest of the row",
}


def experiences(per_technique: int = 6, session: str = "s1", start: int = 0) -> list[dict]:
    """Sudoku moves, ``per_technique`` of each of the three TECHNIQUES: three clean patterns."""
    out = []
    for t, (name, template) in enumerate(TECHNIQUES.items()):
        for i in range(start, start + per_technique):
            out.append(
                {
                    "id": f"{session}-{t}-{i}",
                    "description": template.format(r=i % 9 + 1, c=(i * 4) % 9 + 1, d=(i * 7) % 9 + 1),
                    "outcome": "success" if name != "Pointing Pair" else "progress",
                    "kind": "move" if name != "Pointing Pair" else "strategy",
                    "strategy_used": name,
                    "confidence": 0.9,
                    "timestamp": f"2026-01-04T21:{t:02d}:{i % 60:02d}+00:00",
                }
            )
    return out


STRONG, CHEAP = "claude-stub-strong", "claude-stub-cheap"
"""The wander models the Claude-path tests configure (strong dwells, cheap routes)."""
PRICES = {STRONG: (300.0, 1500.0), CHEAP: (100.0, 500.0)}


@contextlib.contextmanager
def claude_wander_settings(settings, responder):
    """(settings that send wander's calls to a local Messages-API stub, the stub), the stub
    answering with ``responder``; stopped on exit."""
    stub = MessagesStub().start()
    stub.responder = responder
    try:
        yield (
            dataclasses.replace(
                settings,
                llm_provider="anthropic",
                anthropic_api_key="test",
                anthropic_base_url=stub.url,
                anthropic_model=STRONG,
                wander_cheap_model=CHEAP,
                llm_prices=PRICES,
                llm_max_retries=0,
            ),
            stub,
        )
    finally:
        stub.stop()


def fail_third_write(monkeypatch: Any, store: Any, chosen: Callable[[str], bool]) -> None:
    """Make the third ``store.write`` of a query ``chosen`` accepts raise StoreError("injected
    failure"): a write phase that stops part-way (``monkeypatch.undo()`` restores the store)."""
    real_write, calls = store.write, []

    def failing(name: str, /, **params: Any) -> Any:
        if chosen(name):
            calls.append(name)
            if len(calls) == 3:
                raise StoreError("injected failure", query=name)
        return real_write(name, **params)

    monkeypatch.setattr(store, "write", failing)
