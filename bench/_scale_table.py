"""The scale table of bench/RESULTS.md (issue 25, item 7), regenerated from bench/scale_bench.py's runs.

Each run of ``scale_bench.py --write`` stores the figures it measured in bench/scale_figures.json
(by mind size and measure, each with its date and load average) and rewrites the block between
the ``scale`` markers of bench/RESULTS.md from that file. A run that skips a step (``--no-dream``,
``--dream-only``, a kept mind whose import is skipped) leaves that measure's last figure as it
was, with its own date.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

BENCH = Path(__file__).resolve().parent
FIGURES = BENCH / "scale_figures.json"
RESULTS = BENCH / "RESULTS.md"
BEGIN, END = "<!-- scale:begin -->", "<!-- scale:end -->"
MEASURES = {
    "import": ("CLI import end to end (`graphmind import`, validation included)", "≥ 10,000 nodes/s"),
    "embed": ("embedding pass (`Mind.embed`, hashing embedder)", ""),
    "recall_graph": ("recall p50 / p95, graph path (a one-shot process)", ""),
    "recall_memory": ("recall p50 / p95, in memory (a long-lived process)", "p95 < 100 ms"),
    "rumination": ("rumination step p50 / p95 (graph time)", ""),
    "dream_backlog": ("dream runs consuming the whole mind (`max_experiences` each)", ""),
    "dream_incremental": ("incremental dream on 1 % new captures", ""),
    "rss": ("peak RSS: bench / import command / Neo4j", ""),
}


@dataclass(frozen=True)
class Figure:
    figure: str
    result: str
    """met | not met | "" (no target)."""
    date: str
    load: str


def load_average() -> str:
    return " / ".join(f"{x:.1f}" for x in os.getloadavg())


def figure(text: str, result: str = "") -> Figure:
    """A figure measured now, with the load average beside it."""
    return Figure(text, result, datetime.now(UTC).strftime("%Y-%m-%d"), load_average())


def write(memories: int, measured: dict[str, Figure]) -> None:
    """Keep this run's figures and rewrite the table in bench/RESULTS.md."""
    data = json.loads(FIGURES.read_text()) if FIGURES.exists() else {}
    row = data.setdefault(str(memories), {})
    row.update({key: asdict(value) for key, value in measured.items()})
    FIGURES.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    text = RESULTS.read_text()
    block = f"{BEGIN}\n{render(data)}{END}"
    if BEGIN in text and END in text:
        text = text[: text.index(BEGIN)] + block + text[text.index(END) + len(END) :]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    RESULTS.write_text(text)


def render(data: dict[str, dict[str, dict[str, str]]]) -> str:
    lines = ["| memories | measure | figure | target | result | measured (load) |", "|---|---|---|---|---|---|"]
    for size in sorted(data, key=int):
        for key, (name, target) in MEASURES.items():
            if key in data[size]:
                f = data[size][key]
                lines.append(
                    f"| {int(size):,} | {name} | {f['figure']} | {target} | {f['result']} | {f['date']} ({f['load']}) |"
                )
    return "\n".join(lines) + "\n"
