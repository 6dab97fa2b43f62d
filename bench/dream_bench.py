"""The dreaming pipeline's speed and memory at 100, 1,000 and 10,000 experiences.

    python bench/dream_bench.py [--sizes 100,1000,10000] [--write]

Each size runs in its own process (so peak RSS is that size's): experiences are captured
into a scratch mind (CLINC150 utterances of the 75 intents in a seeded order, then Sudoku
demo sessions when more are needed), embedded by the embedding pass (timed apart: recall
does the same work), then one dream runs with the offline LLM, then a second dream with no
new experiences. Capture is timed three ways on 200 single experiences each: the ``Mind.capture`` call
(write-behind), capture + ``flush()`` (until the experience is stored), and
``capture(..., wait=True)`` (a synchronous write).
Targets (issue 5): 100 in < 5 s, 10,000 in < 60 s, peak RSS < 500 MB at 10,000, LLM calls
<= patterns + ladder nodes, 0 LLM calls on the second run, capture p95 < 10 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import bench_store, scratch_mind, write_results
from dream_quality import CLINC

from graphmind.demo.sudoku import session_experiences
from graphmind.mind import Mind
from graphmind.store.minds import delete_mind


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def experiences(n: int) -> list[dict]:
    data = json.loads(CLINC.read_text())
    texts = [t for t, _ in data["train"]]
    random.Random(0).shuffle(texts)
    out = [
        {
            "id": f"c{i:05d}",
            "description": t,
            "outcome": random.Random(i).choice(["success", "progress"]),
            "kind": "move",
            "timestamp": "2026-01-04T00:00:00+00:00",
        }
        for i, t in enumerate(texts[:n])
    ]
    session = 0
    while len(out) < n:
        for line in session_experiences(f"sudoku-{session}"):
            props = dict(line["properties"])
            out.append({"id": line["id"], **props})
        session += 1
    return out[:n]


def one(n: int) -> dict:
    batch = experiences(n)
    with bench_store() as (store, settings):
        mind = Mind(scratch_mind(f"bench-dream-{n}"), store, settings)
        try:
            samples, stored, sync = [], [], []
            for i in range(200):
                started = time.perf_counter()
                mind.capture({"id": f"capture-{i}", "description": f"capture {i}", "outcome": "success"})
                samples.append((time.perf_counter() - started) * 1000)
                time.sleep(0.002)  # an agent's step between two captures
            mind.flush()
            for i in range(200):
                started = time.perf_counter()
                mind.capture({"id": f"stored-{i}", "description": f"capture {i}", "outcome": "success"})
                mind.flush()
                stored.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                mind.capture({"id": f"sync-{i}", "description": f"capture {i}", "outcome": "success"}, wait=True)
                sync.append((time.perf_counter() - started) * 1000)
            delete_mind(mind.store, mind.name)
            started = time.perf_counter()
            mind.capture_many(batch)
            capture_s = time.perf_counter() - started
            started = time.perf_counter()
            mind.embed()
            embed_s = time.perf_counter() - started
            rss_before = rss_mb()
            started = time.perf_counter()
            report = mind.dream()
            dream_s = time.perf_counter() - started
            rss_peak = rss_mb()
            calls = mind.llm.usage.calls
            second = mind.dream()
        finally:
            mind.delete()
            mind.close()
    return {
        "n": n,
        "dream_s": round(dream_s, 2),
        "timings_ms": report.timings,
        "llm_calls": report.llm_calls,
        "patterns": report.patterns,
        "ladder_nodes": len(report.ladder),
        "ratio": report.compression_ratio,
        "second_run_calls": mind.llm.usage.calls - calls,
        "second_status": second.status,
        "rss_before_mb": round(rss_before),
        "rss_peak_mb": round(rss_peak),
        "capture_p50_ms": round(float(np.percentile(samples, 50)), 2),
        "capture_p95_ms": round(float(np.percentile(samples, 95)), 2),
        "stored_p95_ms": round(float(np.percentile(stored, 95)), 2),
        "sync_p95_ms": round(float(np.percentile(sync, 95)), 2),
        "capture_many_s": round(capture_s, 2),
        "embed_s": round(embed_s, 1),
        "verification": report.verification.get("status"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--write", action="store_true", help="put the table into bench/RESULTS.md (dream-bench)")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one)))
        return
    results = []
    for n in [int(s) for s in args.sizes.split(",")]:
        out = subprocess.run([sys.executable, __file__, "--one", str(n)], capture_output=True, text=True, check=True)
        results.append(json.loads(out.stdout.strip().splitlines()[-1]))
    print(
        f"{'n':>7}{'dream s':>9}{'calls':>7}{'pat+lad':>8}{'2nd':>5}{'RSS MB':>8}{'embed s':>9}"
        f"{'capture p50/p95':>17}{'stored p95':>11}{'sync p95':>9}"
    )
    for r in results:
        print(
            f"{r['n']:>7}{r['dream_s']:>9.2f}{r['llm_calls']:>7}{r['patterns'] + r['ladder_nodes']:>8}"
            f"{r['second_run_calls']:>5}{r['rss_peak_mb']:>8}{r['embed_s']:>9.1f}"
            f"{r['capture_p50_ms']:>9.3f}/{r['capture_p95_ms']:<7.3f}{r['stored_p95_ms']:>11.1f}{r['sync_p95_ms']:>9.1f}"
        )
    for r in results:
        print(f"{r['n']:>7} phases ms: {r['timings_ms']}  (ratio {r['ratio']}, verification {r['verification']})")
    first, last = results[0], results[-1]
    print(
        f"ratio dream time {last['n']}/{first['n']}: {last['dream_s'] / first['dream_s']:.1f} "
        f"for {last['n'] / first['n']:.0f}x the experiences; targets: 100 < 5 s, 10,000 < 60 s, "
        f"RSS < 500 MB, capture p95 < 10 ms"
    )
    if args.write:
        write_results("dream-bench", table(results, "python bench/dream_bench.py --sizes " + args.sizes))


def table(results: list[dict], command: str) -> str:
    """The markdown table bench/RESULTS.md keeps (``--write``), with the phases of the largest size."""
    lines = [
        f"`{command}` ({time.strftime('%Y-%m-%d')}, load {os.getloadavg()[0]:.1f}):",
        "",
        "| experiences | dream s | LLM calls | patterns + ladder nodes | 2nd run calls "
        "| RSS MB before / peak | embedding pass s | capture p95 ms | stored p95 ms |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r['n']:,} | {r['dream_s']:.2f} | {r['llm_calls']} | {r['patterns'] + r['ladder_nodes']} "
            f"| {r['second_run_calls']} | {r['rss_before_mb']} / {r['rss_peak_mb']} | {r['embed_s']:.1f} "
            f"| {r['capture_p95_ms']:.2f} | {r['stored_p95_ms']:.1f} |"
        )
    last = results[-1]
    phases = ", ".join(f"{k} {v:,.0f}" for k, v in last["timings_ms"].items())
    lines += ["", f"Phases at {last['n']:,} (ms): {phases}."]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
