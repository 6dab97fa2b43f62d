"""Rumination's graph-side time per step and per rumination, at 1k, 10k and 100k memories.

    python bench/ruminate_bench.py [--sizes 1000,10000,100000] [--ruminations 40]

One mind grows to each size with the eight mind-protocol types in equal shares, linked as a
researcher's import would link them (a conversation INVOLVES a partner and is ABOUT a technical
context; failed attempts, strategies, code and feelings hang off those), their texts drawn
from CLINC150 utterances (``../shared/data/clinc150``), plus the seed's B01 Felix memories. The
embedding pass fills the vector index; the mind's vectors are loaded into recall's in-memory
copy (what a long-lived process has). Then ``--ruminations`` ruminations run with the offline
LLM (after four warm-up ones), on the Felix stimulus and held-out CLINC150 utterances. Each
step records its graph time: the coverage search and query (initial step) or the Dreamer's tool
queries (later steps), without the query embedding's time and without the LLM. The Findings
each rumination records are embedded before the next one starts (what its first search would
otherwise do first), outside the timing. Each size's line ends with the machine's load
average, since other work on the machine inflates the timings. Target
(issue 4): per-step p95 < 50 ms at 100k memories, ratio p95(100k) / p95(1k) <= 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import bench_store, scratch_mind

from graphmind.app import make_embedder
from graphmind.llm.offline import OfflineLLM
from graphmind.mind import Mind

WARMUP = 4
CLINC = Path(
    os.environ.get(
        "GRAPHMIND_CLINC150",
        Path(__file__).resolve().parents[2] / "shared" / "data" / "clinc150" / "clinc150_5domains.json",
    )
)
B01 = Path(str(resources.files("graphmind") / "demo" / "b01-felix.jsonl"))
PARTNERS = ["Nicolas", "Marco", "Amara", "Priya", "Tomas", "Lena", "Kofi", "Yuki"]


def utterances() -> tuple[list[str], list[str]]:
    data = json.loads(CLINC.read_text(encoding="utf-8"))
    texts = [text for text, _ in data["train"]]
    return texts[:-400], texts[-400:]


def _node(label: str, node_id: str, **props: object) -> str:
    return json.dumps({"type": "node", "label": label, "id": node_id, "properties": props})


def _edge(rel: str, start: str, end: str) -> str:
    return json.dumps({"type": "edge", "rel": rel, "from": start, "to": end, "properties": {}})


def write_mind(path: Path, start: int, count: int, corpus: list[str], rng: np.random.Generator) -> Path:
    """``count`` memories (ids start..), in equal shares of the eight types, with their links."""
    lines: list[str] = []
    say = lambda: corpus[int(rng.integers(len(corpus)))]  # noqa: E731
    per = max(1, count // 8)
    base = start // 8
    prefixes = {
        "Partnership": "par",
        "Conversation_Memory": "conv",
        "Technical_Context": "tech",
        "Emotional_State": "emo",
        "Strategy_Pattern": "strat",
        "Code_Reference": "code",
        "Failed_Attempt": "fail",
        "Constraint": "cons",
    }
    ids = {t: [f"{p}{base + i}" for i in range(per)] for t, p in prefixes.items()}
    day = lambda: f"2026-{int(rng.integers(1, 11)):02d}-{int(rng.integers(1, 28)):02d}T10:00:00Z"  # noqa: E731
    for i, node_id in enumerate(ids["Partnership"]):
        lines.append(
            _node(
                "Partnership",
                node_id,
                partner_name=f"{PARTNERS[i % 8]} {base + i}",
                duration=f"{int(rng.integers(1, 36))} months",
                shared_history=[say(), say()],
                communication_style=say(),
                trust_level=round(float(rng.random()), 2),
            )
        )
    for node_id in ids["Technical_Context"]:
        lines.append(
            _node(
                "Technical_Context",
                node_id,
                component=f"{node_id}.py",
                issue_type="bug",
                description=say(),
                status="investigating",
                recurrence_count=int(rng.integers(1, 5)),
            )
        )
    for node_id in ids["Code_Reference"]:
        lines.append(
            _node(
                "Code_Reference",
                node_id,
                file_path=f"src/{node_id}.py",
                complexity=["low", "medium", "high"][int(rng.integers(3))],
                description=say(),
            )
        )
    for node_id in ids["Conversation_Memory"]:
        lines.append(
            _node(
                "Conversation_Memory",
                node_id,
                topic=say(),
                timestamp=day(),
                message_count=int(rng.integers(2, 60)),
                emotional_tone="tense",
                key_points=[say(), say()],
                outcome=say(),
            )
        )
    for node_id in ids["Emotional_State"]:
        lines.append(
            _node(
                "Emotional_State",
                node_id,
                emotion="frustration",
                intensity=round(float(rng.random()), 2),
                context=say(),
                counterbalance=say(),
                trigger=say(),
            )
        )
    for node_id in ids["Strategy_Pattern"]:
        lines.append(
            _node(
                "Strategy_Pattern",
                node_id,
                approach=say(),
                success_rate=round(float(rng.random()), 2),
                applicability=say(),
                steps=[say(), say(), say()],
            )
        )
    for node_id in ids["Failed_Attempt"]:
        lines.append(_node("Failed_Attempt", node_id, approach=say(), why_failed=say(), timestamp=day()))
    for node_id in ids["Constraint"]:
        lines.append(
            _node(
                "Constraint",
                node_id,
                constraint_type="deadline",
                severity="high",
                description=say(),
                deadline=day(),
                impact=say(),
            )
        )
    pick = lambda t: ids[t][int(rng.integers(per))]  # noqa: E731
    for i in range(per):
        conv = ids["Conversation_Memory"][i]
        lines += [
            _edge("INVOLVES", conv, pick("Partnership")),
            _edge("ABOUT", conv, pick("Technical_Context")),
            _edge("FELT_DURING", ids["Emotional_State"][i], conv),
            _edge("ATTEMPTED_ON", ids["Failed_Attempt"][i], pick("Technical_Context")),
            _edge("APPLIES_TO", ids["Strategy_Pattern"][i], pick("Technical_Context")),
            _edge("DEPENDS_ON", ids["Technical_Context"][i], ids["Code_Reference"][i]),
            _edge("PRESSURES", ids["Constraint"][i], pick("Technical_Context")),
        ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def load() -> str:
    """The machine's 1, 5 and 15 minute load averages (timings mean little on a busy machine)."""
    return " / ".join(f"{v:.2f}" for v in os.getloadavg())


def run(mind: Mind, stimuli: list[tuple[str, str | None]]) -> tuple[list[float], list[float], dict]:
    """Graph ms of every step and of every rumination (after the warm-up), and a summary."""
    steps, totals, sizes = [], [], []
    for n, (stimulus, sender) in enumerate(stimuli):
        result = mind.ruminate(stimulus, sender=sender)
        mind.embed(full=False)  # the run's Findings, as the next recall would embed them first
        if n < WARMUP:
            continue
        graph = [s.graph_ms for s in result.steps if s.kind != "guard"]
        steps += graph
        totals.append(sum(graph))
        sizes.append(len(result.steps))
    return steps, totals, {"steps per rumination": float(np.mean(sizes))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--ruminations", type=int, default=40)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    corpus, held_out = utterances()
    rng = np.random.default_rng(11)
    stimuli = [("Hey Felix, the race condition is back.", "Nicolas")] + [
        (text, PARTNERS[i % 8] if i % 2 else None) for i, text in enumerate(held_out)
    ]
    stimuli = stimuli[: args.ruminations + WARMUP]
    with bench_store() as (store, settings), tempfile.TemporaryDirectory() as tmp_dir:
        tmp = Path(tmp_dir)
        embedder = make_embedder(settings)
        mind = Mind(scratch_mind("bench-ruminate"), store, settings, embedder=embedder, llm=OfflineLLM())
        print(f"embedder {embedder.model_id}; offline LLM; {len(stimuli) - WARMUP} timed ruminations")
        rows, have = {}, 0
        try:
            mind.import_jsonl(B01)
            for size in sizes:
                started = time.perf_counter()
                mind.import_jsonl(write_mind(tmp / f"m{size}.jsonl", have, size - have, corpus, rng))
                report = mind.embed(full=False)
                mind.load_vectors()
                have = size
                steps, totals, summary = run(mind, stimuli)
                rows[size] = (
                    np.percentile(steps, 50),
                    np.percentile(steps, 95),
                    np.percentile(totals, 50),
                    np.percentile(totals, 95),
                )
                print(
                    f"{size:>8,} memories (ready in {time.perf_counter() - started:.0f} s, embedding "
                    f"{report.embedded / max(report.seconds, 1e-9):,.0f}/s): per step p50 {rows[size][0]:.1f}"
                    f" p95 {rows[size][1]:.1f} ms; per rumination p50 {rows[size][2]:.1f} p95 "
                    f"{rows[size][3]:.1f} ms; {summary['steps per rumination']:.1f} steps each; "
                    f"load average {load()}"
                )
        finally:
            mind.delete()
    small, large = rows[sizes[0]], rows[sizes[-1]]
    print(f"per-step p95 ratio {sizes[-1]:,} / {sizes[0]:,}: {large[1] / small[1]:.2f}  (target <= 2)")
    print(f"per-step p95 at {sizes[-1]:,}: {large[1]:.1f} ms  (target < 50 ms)")
    print(f"load average (1 / 5 / 15 min) at the end: {load()} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
