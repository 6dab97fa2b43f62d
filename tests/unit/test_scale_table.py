"""bench/_scale_table.py: the scale table of RESULTS.md, regenerated from the kept figures."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path


def _table(tmp_path: Path, monkeypatch):
    path = Path(__file__).resolve().parents[2] / "bench" / "_scale_table.py"
    spec = importlib.util.spec_from_file_location("_scale_table", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "_scale_table", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "FIGURES", tmp_path / "figures.json")
    monkeypatch.setattr(module, "RESULTS", tmp_path / "RESULTS.md")
    return module


def test_a_run_updates_what_it_measured_and_keeps_the_rest(tmp_path, monkeypatch):
    t = _table(tmp_path, monkeypatch)
    t.RESULTS.write_text("# Results\n\nprose before\n")
    t.write(1000, {"import": t.Figure("10 s, 100 nodes/s (0.01x)", "not met", "2026-01-01", "1.0")})
    t.write(1000, {"dream_incremental": t.figure("0.5 s")})
    t.write(500, {"import": t.figure("1 s, 500 nodes/s", "not met")})
    text = t.RESULTS.read_text()
    assert text.startswith("# Results\n\nprose before\n") and text.count(t.BEGIN) == 1
    rows = [line for line in text.splitlines() if line.startswith("| 1,000 ") or line.startswith("| 500 ")]
    assert [r.split(" | ")[0] for r in rows] == ["| 500", "| 1,000", "| 1,000"]  # by size, then measure order
    assert "10 s, 100 nodes/s (0.01x) | ≥ 10,000 nodes/s | not met | 2026-01-01 (1.0)" in rows[1]
    assert "incremental dream" in rows[2] and "0.5 s" in rows[2]
    kept = json.loads(t.FIGURES.read_text())
    assert set(kept["1000"]) == {"import", "dream_incremental"}
    t.write(1000, {"import": t.figure("9 s, 111 nodes/s", "not met")})  # a later run replaces that figure only
    text = t.RESULTS.read_text()
    assert "10 s, 100 nodes/s" not in text and "9 s, 111 nodes/s" in text and "0.5 s" in text
