"""Turn recall at scale (issue 26, item 5): bulk import, embedding pass, recall p50/p95 and memory.

    python bench/turn_scale_bench.py [--sizes 10000,100000] [--queries 200] [--k 10] [--write]

One mind grows to each size by importing synthetic conversations (bench/conversation_gen.py:
20-turn sessions of speaker pairs over six years, texts from CLINC150) through ``Mind.import_jsonl``
in chunks, then the embedding pass runs (the embedder the settings name: GRAPHMIND_EMBEDDER,
default MiniLM; ``hashing`` makes a million turns feasible on the 2-core VM), then the mind's
vectors are loaded into recall's in-memory copy (a long-lived process; it holds them when they
fit GRAPHMIND_RECALL_CACHE_MB, else recall searches the vector index), then ``--queries`` turn
recalls run (``Mind.recall(q, labels=["Turn"])``: query embedding, hybrid first stage, graph
expansion, rerank, hit counting), after 20 warm-up ones. A quarter of the questions name a month
("last May"), a quarter a speaker, a quarter an entity, so the window, speaker and entity reads
run at every size. Printed per size: import time and turns/s, embedding rate, recall p50/p95 and
median milliseconds by phase, peak RSS of this process and of the local Neo4j, the store's size
on disk, and the load average (the VM is shared: read the figures beside it). Target: p95 < 50 ms
at 100,000 turns. ``--write NAME`` puts the table between the turn-scale:NAME markers of bench/RESULTS.md
(appended the first time), so each embedder's run keeps its own table.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import bench_store, scratch_mind
from conversation_gen import CLINC, Generator, clinc, write

from graphmind.app import make_embedder
from graphmind.launcher import LocalNeo4j
from graphmind.mind import Mind
from graphmind.recall.vectors import nearest

WARMUP = 20
RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


def neo4j_memory(settings: object) -> tuple[float | None, float | None]:
    """(peak RSS GiB of the local Neo4j process, its data directory's size GiB); None when unknown."""
    status = LocalNeo4j(settings).status()  # type: ignore[arg-type]
    peak = None
    if status.pid is not None:
        for line in Path(f"/proc/{status.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                peak = int(line.split()[1]) / 2**20
    data = LocalNeo4j(settings).root / "data"  # type: ignore[arg-type]
    size = None
    if data.is_dir():
        du = subprocess.run(["du", "-sk", str(data)], capture_output=True, text=True, check=False)
        size = int(du.stdout.split()[0]) / 2**20 if du.returncode == 0 else None
    return peak, size


def timed_recalls(mind: Mind, questions: list[str], k: int) -> tuple[list[float], dict[str, float], str]:
    """Milliseconds per timed recall, the median of each phase, and where the vectors were searched."""
    taken: list[float] = []
    phases: dict[str, list[float]] = {}
    searched = ""
    for n, question in enumerate(questions):
        start = time.perf_counter()
        result = mind.recall(question, k=k, labels=["Turn"])
        elapsed = (time.perf_counter() - start) * 1000
        if not result.hits or any(hit.label != "Turn" for hit in result.hits):
            raise SystemExit(f"turn recall returned no turns for {question!r}")
        if n >= WARMUP:
            taken.append(elapsed)
            searched = result.vector_search
            for phase, ms in result.timings_ms.items():
                phases.setdefault(phase, []).append(ms)
    return taken, {phase: statistics.median(ms) for phase, ms in phases.items()}, searched


def list_recall(mind: Mind, questions: list[str], depth: int = 20) -> tuple[str, str]:
    """How the inverted lists (graphmind/recall/partition.py) did on the bench's own questions: the
    share of the exact ``depth`` nearest turns their search returns, beside the recall the lists
    were calibrated to on the mind's rows. The bench peeks at the recaller's copy to search it both ways."""
    copy = mind.recaller._cache._copies.get(mind.name)
    lists = copy.partition if copy is not None else None
    if copy is None or lists is None:
        return "lists: none (every row scanned)", "all rows"
    vectors = mind.embedder.embed(questions)
    found = []
    for vector in vectors:
        got = nearest(copy, vector, ["Turn"], depth)
        copy.partition = None
        want = nearest(copy, vector, ["Turn"], depth)
        copy.partition = lists
        found.append(sum(g.score >= want[-1].score - 1e-7 for g in got) / depth)
    return (
        f"lists: {lists.lists}, {lists.nprobe} probed, recall@{depth} {np.mean(found):.3f} on these questions"
        f" (calibrated {lists.recall:.3f} on the mind's rows)",
        f"{lists.nprobe} of {lists.lists} lists, recall@{depth} {np.mean(found):.2f}",
    )


def gib(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--chunk", type=int, default=100_000, help="turns per imported file")
    parser.add_argument("--write", metavar="NAME", help="put the table into bench/RESULTS.md under this name")
    parser.add_argument(
        "--keep", metavar="MIND", help="grow and keep this mind (a rerun imports only the turns it lacks)"
    )
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    corpus, held_out = clinc(CLINC)
    gen = Generator(corpus)
    questions = gen.questions(held_out, args.queries + WARMUP)
    sessions = gen.rows(sizes[-1])
    lines = [
        "| turns | import s, in all (turns/s this step) | embedding pass s (turns/s) | vectors | recall p50 / p95 ms | median ms by phase "
        "| peak RSS bench / Neo4j GiB | store GiB | load avg |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    with bench_store() as (store, settings), tempfile.TemporaryDirectory() as tmp:
        embedder = make_embedder(settings)
        mind = Mind(args.keep or scratch_mind("bench-turn-scale"), store, settings, embedder=embedder)
        print(f"embedder {embedder.model_id}; {args.queries} timed turn recalls (after {WARMUP}), k={args.k}")
        have, import_total = mind.stats().labels.get("Turn", 0), 0.0
        for _ in range(have // 20):  # the kept mind's sessions (20 turns each) are not imported again
            next(sessions)
        try:
            for size in sizes:
                imported, before = 0.0, have
                while have < size:  # chunked files: the importer reads a file whole
                    part = Path(tmp) / f"turns-{have}.jsonl"
                    rows = []
                    turns = 0
                    for row in sessions:
                        rows.append(row)
                        turns += len(row["turns"])
                        if turns >= min(args.chunk, size - have):
                            break
                    write(iter(rows), part)
                    start = time.perf_counter()
                    mind.import_jsonl(part)
                    imported += time.perf_counter() - start
                    part.unlink()
                    have += turns
                import_total += imported
                report = mind.embed()
                start = time.perf_counter()
                held = mind.load_vectors()
                loaded = time.perf_counter() - start
                load_before = os.getloadavg()[0]
                taken, phases, searched = timed_recalls(mind, questions, args.k)
                lists_long, lists_short = list_recall(mind, questions[WARMUP:])
                print(lists_long)
                load = (load_before + os.getloadavg()[0]) / 2
                p50, p95 = np.percentile(taken, 50), np.percentile(taken, 95)
                bench_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
                neo_rss, store_size = neo4j_memory(settings)
                phase_text = ", ".join(f"{p} {ms:.1f}" for p, ms in phases.items() if p != "text_wait")
                print(
                    f"{have:>9,} turns: import {import_total:.0f} s in all ({(have - before) / max(imported, 1e-9):,.0f}"
                    f" turns/s this step), embedding pass {report.seconds:.0f} s, {held:,} vectors in memory"
                    f" (loaded in {loaded:.1f} s), vectors searched in {searched}; recall p50 {p50:.1f} p95"
                    f" {p95:.1f} ms; {phase_text}; peak RSS bench {bench_rss:.2f} GiB, Neo4j {gib(neo_rss)} GiB;"
                    f" store {gib(store_size)} GiB; load {load:.1f}"
                )
                lines.append(
                    f"| {have:,} | {import_total:.0f} ({(have - before) / max(imported, 1e-9):,.0f}) "
                    f"| {report.seconds:.0f} ({report.embedded / max(report.seconds, 1e-9):,.0f}) | {searched}, {lists_short} "
                    f"| {p50:.1f} / {p95:.1f} | {phase_text} | {bench_rss:.2f} / {gib(neo_rss)} "
                    f"| {gib(store_size)} | {load:.1f} |"
                )
        finally:
            if not args.keep:
                mind.delete()
            mind.close()
    table = "\n".join(lines)
    print(table)
    if args.write:
        head = (
            f"`python bench/turn_scale_bench.py --sizes {args.sizes} --queries {args.queries}"
            f"{f' --keep {args.keep}' if args.keep else ''}` "
            f"({dt.date.today().isoformat()}, embedder {embedder.model_id}):"
        )
        begin, end = f"<!-- turn-scale:{args.write}:begin -->", f"<!-- turn-scale:{args.write}:end -->"
        block = f"{begin}\n{head}\n\n{table}\n{end}"
        text = RESULTS.read_text()
        if begin in text and end in text:
            text = text.split(begin, 1)[0] + block + text.split(end, 1)[1]
        else:
            text = text.rstrip("\n") + "\n\n### Turn recall at scale\n\n" + block + "\n"
        RESULTS.write_text(text)


if __name__ == "__main__":
    main()
