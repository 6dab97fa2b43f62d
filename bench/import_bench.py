"""Import throughput: the batched path vs a naive one-transaction-per-row path.

    python bench/import_bench.py [--nodes 100000] [--edges 200000] [--warmup N] [--repeat 3]
                                 [--naive 5000] [--naive-warmup 20000] [--overlap on|off]

The batched path is the real one (``Mind.import_jsonl``: validate every line, then batched
UNWIND writes), run on a JSONL file; nodes/s and edges/s are taken from the import's own
phase timings. With ``--overlap off`` (GRAPHMIND_IMPORT_OVERLAP=off) validation runs alone
first and the node rate excludes it; with ``--overlap on`` (the default, as the CLI runs) new
nodes are written while validation runs, so the node rate is over both. Each run also prints
its end-to-end nodes/s beside issue 25's target of 10,000. The first
``--warmup`` full-size imports warm the JVM's JIT and are printed as "cold" but not counted;
then the import is repeated and the median of those warm runs is reported, as a server that
has been up a while sees it. A just-started server keeps getting faster for about a million
node writes, so the warm-up defaults to 3 imports when this run starts the local Neo4j
itself, and to 1 on a server that is already running.

The naive path sends the same catalog queries one row per transaction, with rows like the
dataset's. It gets faster as the server warms up too (about 250 rows/s on a just-started
server, 500-650 once it has run some 20,000 one-row transactions), so ``--naive-warmup`` rows
go through it first and are not counted: both paths are compared warm.
Target (issue 2): batched >= 20,000 nodes/s and >= 50x naive.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import gc
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import bench_store, local_neo4j_stopped, scratch_mind

from graphmind.config import Settings
from graphmind.io import ImportReport, importer
from graphmind.mind import Mind
from graphmind.store.minds import delete_mind

RELS = ("FOLLOWS", "SIMILAR_TO", "CAUSED")
OUTCOMES = ("success", "failure", "progress")
TIMESTAMP = "2026-10-01T12:00:00Z"
OVERLAP = [True]
"""``--overlap``: whether new nodes are written while validation runs (GRAPHMIND_IMPORT_OVERLAP)."""
END_TO_END_TARGET = 10_000  # nodes/s, issue 25 item 6
NAIVE_CHUNK = 1_000  # the naive rates are also printed per this many rows, to show their spread


def node_properties(i: int, rng: np.random.Generator) -> dict:
    """The properties of node ``i``, the same on both paths (``timestamp`` is a date-time)."""
    return {
        "description": f"experience {i}: tried strategy {i % 97} on task {i % 1013}",
        "outcome": OUTCOMES[i % 3],
        "kind": "move",
        "importance": round(float(rng.random()), 3),
        "timestamp": TIMESTAMP,
    }


def write_dataset(path: Path, nodes: int, edges: int, rng: np.random.Generator) -> Path:
    with path.open("w") as out:
        for i in range(nodes):
            out.write(
                json.dumps(
                    {"type": "node", "label": "Experience", "id": f"e{i}", "properties": node_properties(i, rng)}
                )
                + "\n"
            )
        ends = rng.integers(0, nodes, size=(edges, 2))
        for k, (a, b) in enumerate(ends):
            out.write(
                json.dumps(
                    {
                        "type": "edge",
                        "rel": RELS[k % 3],
                        "from": f"e{a}",
                        "to": f"e{b}",
                        "properties": {"weight": round(float(rng.random()), 3)},
                    }
                )
                + "\n"
            )
    return path


def node_write_s(report: ImportReport) -> float:
    """The seconds the nodes took: their own phase, plus validation when they overlapped it."""
    return report.timings["nodes_s"] + (report.timings["validate_s"] if OVERLAP[0] else 0.0)


def batched(store, settings, data: Path) -> tuple[ImportReport, float]:
    """One real import into a fresh mind (deleted afterwards); returns its report and wall time."""
    mind = Mind(scratch_mind("bench-batched"), store, dataclasses.replace(settings, import_overlap=OVERLAP[0]))
    try:
        start = time.perf_counter()
        report = mind.import_jsonl(data)
        return report, time.perf_counter() - start
    finally:
        mind.delete()


@dataclass(frozen=True)
class Rates:
    """Rows written per second: over all rows, and in each run of ``NAIVE_CHUNK`` rows."""

    overall: float
    chunks: list[float]


def naive(store, rows: int, rng: np.random.Generator) -> tuple[Rates, Rates]:
    """One write transaction per row through the same catalog queries, with rows like the
    dataset's (the node's date-time travels as text, as the importer sends it); the node and
    the edge rates."""
    mind = scratch_mind("bench-naive")

    def write_node(i: int) -> None:
        props = node_properties(i, rng)
        store.write(
            "import/upsert_memories",
            mind=mind,
            rows=[
                {
                    "uid": f"{mind}:e{i}",
                    "id": f"e{i}",
                    "label": "Experience",
                    "dates": {"timestamp": props.pop("timestamp")},
                    "props": props,
                }
            ],
        )

    def write_edge(i: int) -> None:
        store.write(
            "import/link_edges",
            rows=[
                {
                    "from_uid": f"{mind}:e{i}",
                    "from_base": "Memory",
                    "to_uid": f"{mind}:e{(i * 7 + 1) % rows}",
                    "to_base": "Memory",
                    "rel": RELS[i % 3],
                    "props": {"weight": round(float(rng.random()), 3)},
                    "dates": {},
                    "key": [],
                    "new": False,
                }
            ],
        )

    try:
        return chunk_rates(rows, write_node), chunk_rates(rows, write_edge)
    finally:
        delete_mind(store, mind)


def chunk_rates(rows: int, write_row: Callable[[int], None]) -> Rates:
    """``write_row`` for rows 0..rows-1, timed in runs of ``NAIVE_CHUNK`` rows."""
    chunks, total = [], 0.0
    for first in range(0, rows, NAIVE_CHUNK):
        chunk = range(first, min(first + NAIVE_CHUNK, rows))
        start = time.perf_counter()
        for i in chunk:
            write_row(i)
        seconds = time.perf_counter() - start
        chunks.append(len(chunk) / seconds)
        total += seconds
    return Rates(rows / total, chunks)


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """The process-wide switch the importer used before issue 23, kept here to measure it."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--edges", type=int, default=200_000)
    parser.add_argument("--naive", type=int, default=5_000)
    parser.add_argument(
        "--warmup",
        type=int,
        default=None,
        help="imports run first and not counted (default: 3 on a server this run starts, else 1)",
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--gc",
        choices=("on", "paused"),
        default="on",
        help="'paused': the cyclic garbage collector off during each import, the process-wide switch "
        "the importer had before issue 23 (~13%% faster end to end on 50k nodes + 100k edges)",
    )
    parser.add_argument(
        "--naive-warmup", type=int, default=20_000, help="rows sent through the naive path first and not counted"
    )
    parser.add_argument(
        "--overlap",
        choices=("on", "off"),
        default="on",
        help="'off': validate the whole file before the first write (GRAPHMIND_IMPORT_OVERLAP=off)",
    )
    args = parser.parse_args()
    OVERLAP[0] = args.overlap == "on"
    if args.gc == "paused":
        run = importer.Importer.run

        def paused_run(self: importer.Importer, *a: Any, **kw: Any) -> ImportReport:
            with _gc_paused():
                return run(self, *a, **kw)

        importer.Importer.run = paused_run  # type: ignore[method-assign]
    if args.warmup is None:
        args.warmup = 3 if local_neo4j_stopped(Settings.from_env()) else 1
    rng = np.random.default_rng(7)
    with bench_store() as (store, settings), tempfile.TemporaryDirectory() as tmp:
        data = write_dataset(Path(tmp) / "bench.jsonl", args.nodes, args.edges, rng)
        warmups = [batched(store, settings, data) for _ in range(args.warmup)]
        runs = [batched(store, settings, data) for _ in range(args.repeat)]
        naive_warm = naive(store, args.naive_warmup, rng) if args.naive_warmup else None
        naive_nodes, naive_edges = naive(store, args.naive, rng)
    node_rates = [r.nodes / node_write_s(r) for r, _ in runs]
    edge_rates = [r.edges / r.timings["edges_s"] for r, _ in runs]
    nodes_s, edges_s = statistics.median(node_rates), statistics.median(edge_rates)
    print(
        f"dataset: {args.nodes:,} nodes + {args.edges:,} edges; batch {settings.import_batch_size}, "
        f"{settings.import_workers} node-writing workers; {args.repeat} warm runs after {args.warmup} warm-up; "
        f"overlap {args.overlap}; load {' / '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    for cold, cold_wall in warmups:
        print(
            f"  cold:  {cold_wall:5.1f} s end to end, phases {cold.timings}, "
            f"{cold.nodes / node_write_s(cold):,.0f} nodes/s, {cold.edges / cold.timings['edges_s']:,.0f} edges/s"
        )
    for k, (report, wall) in enumerate(runs, 1):
        print(
            f"  run {k}: {wall:5.1f} s end to end ({report.nodes / wall:,.0f} nodes/s, "
            f"{report.nodes / wall / END_TO_END_TARGET:.2f}x the {END_TO_END_TARGET:,}/s target), "
            f"phases {report.timings}, {node_rates[k - 1]:,.0f} nodes/s, {edge_rates[k - 1]:,.0f} edges/s"
        )
    if naive_warm:
        print(
            f"  naive warm-up: {args.naive_warmup:,} rows, {naive_warm[0].overall:,.0f} nodes/s, "
            f"{naive_warm[1].overall:,.0f} edges/s"
        )
    print(
        f"  naive, per {NAIVE_CHUNK:,} rows: nodes/s {' / '.join(f'{r:,.0f}' for r in naive_nodes.chunks)}; "
        f"edges/s {' / '.join(f'{r:,.0f}' for r in naive_edges.chunks)}"
    )
    print(f"{'path':<10}{'nodes/s':>12}{'edges/s':>12}")
    print(
        f"{'batched':<10}{nodes_s:>12,.0f}{edges_s:>12,.0f}   (median of warm runs; write phases, "
        + ("nodes overlapping validation)" if OVERLAP[0] else "validation excluded)")
    )
    print(
        f"{'naive':<10}{naive_nodes.overall:>12,.0f}{naive_edges.overall:>12,.0f}   ({args.naive:,} rows, 1 tx per row, "
        f"after {args.naive_warmup:,} warm-up rows)"
    )
    print(
        f"{'ratio':<10}{nodes_s / naive_nodes.overall:>11.1f}x{edges_s / naive_edges.overall:>11.1f}x   "
        f"(against the fastest and slowest {NAIVE_CHUNK:,} naive rows: "
        f"{nodes_s / max(naive_nodes.chunks):.0f}-{nodes_s / min(naive_nodes.chunks):.0f}x nodes, "
        f"{edges_s / max(naive_edges.chunks):.0f}-{edges_s / min(naive_edges.chunks):.0f}x edges)"
    )


if __name__ == "__main__":
    main()
