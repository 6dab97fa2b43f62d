"""Scale (issue 25, item 6): one mind of ``--memories`` memories, end to end.

    python bench/scale_bench.py [--memories 1000000] [--queries 100] [--ruminations 20]
                                [--new-share 0.01] [--embedder hashing] [--no-dream | --dream-only]
                                [--recall-cache-mb N] [--keep MIND] [--write]

1. **Import**: ``--memories`` Experience nodes and twice as many edges (bench/import_bench.py's
   dataset) through the whole ``graphmind import`` command in a child process, validation
   included: wall time, nodes/s end to end, the import's own phases. Baseline beside it: the
   issue's target of 10,000 nodes/s.
2. **Embedding pass** (``Mind.embed``) with ``--embedder`` (default ``hashing``: MiniLM embeds
   90-195 memories/s on this VM, so a million would take hours): memories/s.
3. **Recall**: ``--queries`` ``Mind.recall(q, k=10, labels=["Experience"])`` calls (after 10 warm-up ones), on the graph path
   (vector and full-text indexes) and on the in-memory copy of the mind's vectors
   (``Mind.load_vectors``, a long-lived process): p50/p95 ms. Target: p95 < 100 ms. The copy
   needs ``GRAPHMIND_RECALL_CACHE_MB`` to hold the mind with an eighth to spare (1.7 GB for a
   million 384-d vectors; the default 512 MB holds about 290,000), so ``--recall-cache-mb`` defaults to enough for
   ``--memories``; the number of vectors held is printed (0: recall stayed on the graph path).
4. **Rumination**: ``--ruminations`` offline ruminations (after 2 warm-up ones): per-step graph
   time p50/p95 ms.
5. **Dream**: the whole mind consumed by dream runs of at most ``DreamParams.max_experiences``
   (``--max-experiences``, 100,000) experiences each, as a nightly schedule would after a bulk import (each run's time
   and peak RSS so far, and the total); then ``--new-share`` of the mind captured anew and an
   incremental dream on them: wall time, experiences read, LLM calls (``--no-dream`` skips;
   ``--dream-only`` skips steps 3 and 4).
6. **Peak RSS** of this process, of the import's child process and of the local Neo4j.

``--write`` keeps the figures measured in bench/scale_figures.json and rewrites the scale table
of bench/RESULTS.md from it (bench/_scale_table.py): one row per mind size and measure, each
with its date and load average.

The load average is printed beside each figure: the 2-core VM is shared, read figures with it.
Uses the Neo4j ``bench/_common.py`` finds (NEO4J_URI, else the local one).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _scale_table as scale_table
from _common import bench_store, scratch_mind
from _scale_table import Figure, figure
from import_bench import write_dataset

from graphmind.dream import CompressionRatioWarning, DreamParams
from graphmind.launcher import LocalNeo4j
from graphmind.mind import Mind

TARGET_NODES_PER_S = 10_000
TARGET_RECALL_P95_MS = 100.0


def load() -> str:
    return "load " + scale_table.load_average()


def percentiles(values: list[float]) -> str:
    return f"p50 {np.percentile(values, 50):.1f} / p95 {np.percentile(values, 95):.1f} ms (n={len(values)})"


def met(ok: bool) -> str:
    return "met" if ok else "not met"


def cli_import(path: Path, mind: str, env: dict[str, str]) -> tuple[dict, float]:
    """The whole ``graphmind import`` command in a child process: (its JSON report, wall seconds)."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "graphmind.cli", "import", str(path), "--mind", mind, "--json"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"the import failed (exit {done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout), seconds


def timed_recalls(mind: Mind, queries: list[str], warmup: int = 10) -> list[float]:
    taken = []
    for i, query in enumerate(queries):
        start = time.perf_counter()
        mind.recall(query, k=10, labels=["Experience"])
        if i >= warmup:
            taken.append((time.perf_counter() - start) * 1000)
    return taken


def neo4j_peak_gib(settings: object) -> float | None:
    status = LocalNeo4j(settings).status()  # type: ignore[arg-type]
    if status.pid is None:
        return None
    for line in Path(f"/proc/{status.pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 2**20
    return None


def recall_and_ruminate(
    mind: Mind, rng: np.random.Generator, args: argparse.Namespace, need_mb: int, out: dict[str, Figure]
) -> None:
    """Steps 3 and 4: recall on the graph path and in memory, then offline ruminations."""
    queries = [f"tried strategy {rng.integers(97)} on task {rng.integers(1013)}" for _ in range(args.queries + 10)]
    graph = timed_recalls(mind, queries)
    print(f"recall, graph path: {percentiles(graph)}; {load()}")
    out["recall_graph"] = figure(percentiles(graph))
    start = time.perf_counter()
    held = mind.load_vectors()
    loaded = time.perf_counter() - start
    memory = timed_recalls(mind, queries)
    worst = max(np.percentile(graph, 95), np.percentile(memory, 95))
    print(
        f"recall, in memory ({held:,} vectors held, GRAPHMIND_RECALL_CACHE_MB={need_mb}, loaded in "
        f"{loaded:.1f} s): {percentiles(memory)}; "
        f"worst p95 / {TARGET_RECALL_P95_MS:.0f} ms target: {worst / TARGET_RECALL_P95_MS:.2f}; {load()}"
    )
    in_memory = f"{percentiles(memory)}, {held:,} vectors held" + ("" if held else " (so not in memory)")
    out["recall_memory"] = figure(in_memory, met(held > 0 and np.percentile(memory, 95) < TARGET_RECALL_P95_MS))
    steps: list[float] = []
    for i in range(args.ruminations + 2):
        result = mind.ruminate(f"strategy {rng.integers(97)} failed again on task {rng.integers(1013)}: why?")
        if i >= 2:
            steps += [s.graph_ms for s in result.steps if s.kind != "guard"]
    print(f"rumination, graph time per step: {percentiles(steps)}; {load()}")
    out["rumination"] = figure(percentiles(steps))


def peak_rss_gib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20


def dream(mind: Mind, n: int, new_share: float, params: DreamParams, out: dict[str, Figure]) -> None:
    """Step 5: runs until nothing is left unconsumed, then 1 % new captures and one more run."""
    total, runs = 0.0, 0
    for _ in range(max(1, 2 * n // params.max_experiences + 2)):  # bounded, whatever a run reports
        start = time.perf_counter()
        report = mind.dream(params)
        took = time.perf_counter() - start
        if report.status == "nothing_to_consolidate":
            break
        runs, total = runs + 1, total + took
        print(
            f"dream run {runs}: {took:.1f} s, {report.experiences:,} experiences read, {report.remaining:,} left, "
            f"{report.deferred:,} deferred, {report.patterns} new patterns, {report.grown} grown; "
            f"phases ms {report.timings}; peak RSS so far {peak_rss_gib():.2f} GiB; {load()}"
        )
        if report.remaining == 0 or report.degraded:  # a degraded run may have consumed nothing
            break
    print(f"the mind consumed: {runs} runs, {total:.1f} s in all; {load()}")
    if runs:
        out["dream_backlog"] = figure(
            f"{runs} runs of ≤ {params.max_experiences:,}, {total:,.0f} s in all, peak RSS {peak_rss_gib():.2f} GiB"
        )
    new = max(1, int(n * new_share))
    mind.capture_many(
        [
            {
                "description": f"new capture {i}: tried strategy {i % 97} on task {i % 1013}",
                "outcome": ("success", "failure", "progress")[i % 3],
            }
            for i in range(new)
        ]
    )
    mind.flush()
    start = time.perf_counter()
    again = mind.dream(params)
    took = time.perf_counter() - start
    print(
        f"incremental dream on {new:,} new captures ({new_share:.0%}): "
        f"{took:.1f} s, {again.experiences:,} experiences read, {again.patterns} new "
        f"patterns, {again.grown} grown, {again.llm_calls} LLM calls; phases ms {again.timings}; {load()}"
    )
    read_s = again.timings.get("read", 0.0) / 1000
    out["dream_incremental"] = figure(
        f"{took:.1f} s ({read_s:.1f} s of it reading), {again.experiences:,} read, {again.llm_calls} LLM calls"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--ruminations", type=int, default=20)
    parser.add_argument("--new-share", type=float, default=0.01)
    parser.add_argument("--embedder", default="hashing", choices=["hashing", "minilm"])
    parser.add_argument("--no-dream", action="store_true")
    parser.add_argument("--max-experiences", type=int, default=DreamParams().max_experiences)
    parser.add_argument("--dream-only", action="store_true", help="skip the recall and rumination steps")
    parser.add_argument("--recall-cache-mb", type=int, default=None, help="default: enough for --memories vectors")
    parser.add_argument("--keep", metavar="MIND", help="build and keep this mind (a rerun skips the import)")
    parser.add_argument("--write", action="store_true", help="keep the figures and rewrite RESULTS.md's scale table")
    args = parser.parse_args()
    os.environ["GRAPHMIND_EMBEDDER"] = args.embedder
    warnings.simplefilter("ignore", CompressionRatioWarning)  # bulk data: every run is far outside 10:1
    # the mind, grown by the new captures, and the eighth a copy is loaded with room for (vectors.GROWTH_SHARE)
    need_mb = args.recall_cache_mb or 64 + int(args.memories * 1.1 * 1.125 * (384 * 4 + 2) / 2**20)
    os.environ["GRAPHMIND_RECALL_CACHE_MB"] = str(need_mb)
    rng = np.random.default_rng(25)
    n = args.memories
    measured: dict[str, Figure] = {}
    print(f"scale bench: {n:,} memories, {2 * n:,} edges, embedder {args.embedder}; {load()}")
    with bench_store() as (store, settings), tempfile.TemporaryDirectory() as folder:
        name = args.keep or scratch_mind("bench-scale")
        mind = Mind(name, store, settings)
        try:
            if mind.stats().labels.get("Experience", 0) >= n:
                print(f"import: skipped, mind {name} is kept from an earlier run")
            else:
                data = write_dataset(Path(folder) / "mind.jsonl", n, 2 * n, rng)
                env = {**os.environ, "GRAPHMIND_HOME": str(settings.home)}
                report, seconds = cli_import(data, name, env)
                rate = n / seconds
                print(
                    f"import (graphmind import, end to end): {seconds:.1f} s, {rate:,.0f} nodes/s "
                    f"({rate / TARGET_NODES_PER_S:.2f}x the {TARGET_NODES_PER_S:,}/s target); "
                    f"phases {report['timings']}; {load()}"
                )
                measured["import"] = figure(
                    f"{seconds:.1f} s, {rate:,.0f} nodes/s ({rate / TARGET_NODES_PER_S:.2f}x)",
                    met(rate >= TARGET_NODES_PER_S),
                )
            start = time.perf_counter()
            embedded = mind.embed()
            took = time.perf_counter() - start
            print(f"embedding pass: {took:.1f} s, {embedded.embedded / max(took, 1e-9):,.0f} memories/s; {load()}")
            if embedded.embedded:
                measured["embed"] = figure(f"{took:.0f} s, {embedded.embedded / took:,.0f} memories/s")

            if not args.dream_only:
                recall_and_ruminate(mind, rng, args, need_mb, measured)
            if not args.no_dream:
                dream(mind, n, args.new_share, DreamParams(max_experiences=args.max_experiences), measured)
            own = peak_rss_gib()
            child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2**20
            neo = neo4j_peak_gib(settings)
            print(
                f"peak RSS: this process {own:.2f} GiB, the import command {child:.2f} GiB, "
                f"Neo4j {'unknown' if neo is None else f'{neo:.2f} GiB'}"
            )
            neo_rss = "unknown" if neo is None else f"{neo:.2f}"
            if "import" in measured and "recall_memory" in measured:  # a whole run: its peaks say it all
                measured["rss"] = figure(f"{own:.2f} / {child:.2f} / {neo_rss} GiB")
            if args.write:
                scale_table.write(n, measured)
                print(f"figures kept in {scale_table.FIGURES.name}; the scale table of RESULTS.md rewritten")
        finally:
            if not args.keep:
                mind.delete()
            mind.close()
    print(f"done; {load()} (one run: read each figure beside its load)")


if __name__ == "__main__":
    main()
