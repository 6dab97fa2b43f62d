"""Recall latency: p50/p95 of ``Mind.recall`` at 1k, 10k and 100k memories in one mind.

    python bench/recall_bench.py [--sizes 1000,10000,100000] [--other-minds 10]
                                 [--other-size 10000] [--queries 200] [--k 10]

Memories are Experience nodes whose descriptions join two CLINC150 utterances (real user
requests, ``../shared/data/clinc150``), so texts are varied and distinct. Ten other minds of
``--other-size`` memories each are present throughout, so every search has to scope its
results to the one mind from indexes that span all of them. The mind grows to each size by
import, then the embedding pass fills the vector index (its throughput is printed), then the
queries run: held-out CLINC150 utterances, each a full ``Mind.recall`` (query embedding, the
check for pending memories, vector and full-text search, fusion, node fetch, hit counting).
The first 20 queries warm up and are not counted. Each size is timed twice: searching the
graph (the vector index, or an exact Cypher scan below recall.EXACT_LIMIT memories; what a
one-shot ``graphmind recall`` does) and searching recall's in-memory copy of the mind's
vectors (what a long-lived process does from its second recall of a mind on; loaded here
with ``Mind.load_vectors`` first). Target (issue 3): p95 < 50 ms at 100k memories, and
p95(100k) / p95(1k) <= 3. The embedder is the one settings name (GRAPHMIND_EMBEDDER; default
MiniLM).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import bench_store, scratch_mind

from graphmind.app import make_embedder
from graphmind.mind import Mind

WARMUP = 20
CLINC = Path(
    os.environ.get(
        "GRAPHMIND_CLINC150",
        Path(__file__).resolve().parents[2] / "shared" / "data" / "clinc150" / "clinc150_5domains.json",
    )
)


def utterances() -> tuple[list[str], list[str]]:
    """(corpus, queries): CLINC150 training utterances, and held-out out-of-scope ones + a slice."""
    data = json.loads(CLINC.read_text(encoding="utf-8"))
    texts = [text for text, _ in data["train"]]
    return texts[:-400], texts[-400:] + [text for text, _ in data["oos_train"]]


def write_memories(path: Path, start: int, count: int, corpus: list[str], rng: np.random.Generator) -> Path:
    pairs = rng.integers(0, len(corpus), size=(count, 2))
    with path.open("w", encoding="utf-8") as out:
        for offset, (a, b) in enumerate(pairs):
            i = start + offset
            out.write(
                json.dumps(
                    {
                        "type": "node",
                        "label": "Experience",
                        "id": f"x{i}",
                        "properties": {
                            "description": f"{corpus[a]}; then {corpus[b]}",
                            "outcome": "progress",
                            "kind": "move",
                            "timestamp": "2026-10-01T12:00:00Z",
                        },
                    }
                )
                + "\n"
            )
    return path


def grow(
    mind: Mind, have: int, want: int, corpus: list[str], rng: np.random.Generator, tmp: Path
) -> tuple[float, float]:
    """Import memories ``have..want`` and embed them; (import s, embed memories/s)."""
    data = write_memories(tmp / f"{mind.name}-{have}.jsonl", have, want - have, corpus, rng)
    start = time.perf_counter()
    mind.import_jsonl(data)
    imported = time.perf_counter() - start
    report = mind.embed(full=False)
    return imported, report.embedded / max(report.seconds, 1e-9)


def latencies(mind: Mind, queries: list[str], k: int, searched: str) -> tuple[list[float], dict[str, float]]:
    """Seconds per timed recall, and the median milliseconds of each of recall's phases."""
    seconds, phases = [], {}
    for n, query in enumerate(queries):
        start = time.perf_counter()
        result = mind.recall(query, k=k)
        elapsed = time.perf_counter() - start
        if len(result.hits) < min(k, 1):
            raise SystemExit(f"recall returned nothing for {query!r}")
        if (result.vector_search == "memory") != (searched == "memory"):
            raise SystemExit(f"recall searched {result.vector_search}, not {searched}")
        if n >= WARMUP:
            seconds.append(elapsed)
            for phase, ms in result.timings_ms.items():
                phases.setdefault(phase, []).append(ms)
    return seconds, {phase: statistics.median(ms) for phase, ms in phases.items()}


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(np.array(values) * 1000, q))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--other-minds", type=int, default=10)
    parser.add_argument("--other-size", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--k", type=int, default=10)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    corpus, queries = utterances()
    queries = queries[: args.queries + WARMUP]
    rng = np.random.default_rng(7)
    with bench_store() as (store, settings), tempfile.TemporaryDirectory() as tmp_dir:
        tmp = Path(tmp_dir)
        embedder = make_embedder(settings)
        print(
            f"embedder {embedder.model_id}; {args.other_minds} other minds of {args.other_size:,} "
            f"memories; {len(queries) - WARMUP} timed queries, k={args.k}"
        )
        others = [
            Mind(scratch_mind("bench-other"), store, settings, embedder=embedder) for _ in range(args.other_minds)
        ]
        mind = Mind(scratch_mind("bench-recall"), store, settings, embedder=embedder)
        try:
            for other in others:
                _, rate = grow(other, 0, args.other_size, corpus, rng, tmp)
            print(f"other minds ready (embedding pass {rate:,.0f} memories/s)")
            graph_view = Mind(mind.name, store, dataclasses.replace(settings, recall_cache_mb=0), embedder=embedder)
            rows, have = {}, 0
            for size in sizes:
                imported, rate = grow(mind, have, size, corpus, rng, tmp)
                have = size
                print(f"{size:>8,} memories (import {imported:.1f} s, embedding pass {rate:,.0f} memories/s)")
                loaded = time.perf_counter()
                mind.load_vectors()
                loaded = time.perf_counter() - loaded
                for searched, view in (("graph", graph_view), ("memory", mind)):
                    taken, phases = latencies(view, queries, args.k, searched)
                    rows[size, searched] = (percentile(taken, 50), percentile(taken, 95))
                    p50, p95 = rows[size, searched]
                    print(
                        f"  {searched:>6}: p50 {p50:6.1f} ms  p95 {p95:6.1f} ms   median ms by "
                        "phase: " + ", ".join(f"{phase} {ms:.1f}" for phase, ms in phases.items())
                    )
                print(
                    f"  p95 graph / memory: {rows[size, 'graph'][1] / rows[size, 'memory'][1]:.2f}"
                    f"  (vectors loaded into memory in {loaded:.1f} s)"
                )
        finally:
            for m in [mind, *others]:
                m.delete()
    for searched in ("graph", "memory"):
        small, large = rows[sizes[0], searched], rows[sizes[-1], searched]
        print(
            f"{searched}: p95 ratio {sizes[-1]:,} / {sizes[0]:,}: {large[1] / small[1]:.2f}"
            f"  (target <= 3); p95 at {sizes[-1]:,}: {large[1]:.1f} ms  (target < 50 ms)"
        )


if __name__ == "__main__":
    main()
