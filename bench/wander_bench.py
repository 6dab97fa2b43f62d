"""Wander speed and memory: offline steps on a real Neo4j.

    python bench/wander_bench.py [--steps 1000] [--source clinc|felix] [--rng-seed 1]
                                 [--hot-limit 100] [--dweller simple|rlm]

``clinc`` (the default) consolidates 750 CLINC150 utterances (10 per intent) into patterns and
a ladder with one offline dream, then wanders from a seed concept through the mind's memory;
``felix`` wanders through the Felix demo mind. The walk runs with the offline LLM, the default
MiniLM embedder and no human checkpoints. Prints steps/s, peak RSS, RSS and hot / warm loci
over time (hot memory must stay bounded once warm compression starts), and the target
(issue 7: 1,000 steps in < 60 s) side by side with the measurement.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import bench_store, scratch_mind
from dream_quality import CLINC, experiences, load

from graphmind.dream import DreamParams
from graphmind.mind import Mind

DEMO = Path(__file__).resolve().parents[1] / "graphmind" / "demo" / "felix.jsonl"
SEEDS = {"clinc": "planning a trip abroad on a budget", "felix": "race conditions in async code"}
TARGET_S_PER_1000 = 60.0


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def prepare(mind: Mind, source: str) -> str:
    if source == "felix":
        mind.import_jsonl(DEMO)
        return "Felix demo mind"
    texts, _, _ = load(10, CLINC)
    mind.capture_many(experiences(texts))
    mind.embed()
    report = mind.dream(DreamParams())
    return f"CLINC150: {len(texts)} experiences → {report.patterns} patterns, ladder {report.ladder_levels} levels"


def tiers(mind: Mind, session_id: str) -> tuple[int, int]:
    """(hot loci, warm memory nodes) of the session: two small reads, not an export of the mind."""
    hot = mind.store.read("wander/list_hot_loci", mind=mind.name, session_id=session_id)
    return len(hot), len(mind.store.read("wander/list_warm_memory", mind=mind.name, session_id=session_id))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--source", choices=("clinc", "felix"), default="clinc")
    parser.add_argument("--rng-seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=100, help="Steps between RSS samples.")
    parser.add_argument("--hot-limit", type=int, default=100, help="The session's hot_memory_limit.")
    parser.add_argument("--dweller", choices=("simple", "rlm"), default="simple")
    args = parser.parse_args()
    with bench_store() as (store, settings):
        mind = Mind(scratch_mind("bench-wander"), store, settings)
        try:
            t0 = time.perf_counter()
            print(prepare(mind, args.source), f"({time.perf_counter() - t0:.1f} s)")
            mind.embedder.embed(["warm up"])
            print(f"RSS before the walk: {rss_mb():.0f} MB")
            created = time.perf_counter()
            handle = mind.wander(
                SEEDS[args.source],
                rng_seed=args.rng_seed,
                human_checkpoint_frequency=0,
                max_steps=max(args.steps, 1000),
                hot_memory_limit=args.hot_limit,
                dweller=args.dweller,
            )
            start = time.perf_counter()
            print(f"session created (memory loci synced and embedded) in {start - created:.1f} s")
            print(f"\n{'steps':>6} {'elapsed s':>10} {'steps/s':>8} {'RSS MB':>8} {'hot loci':>9} {'warm':>5} crystals")
            done, crystals = 0, 0
            while done < args.steps:
                report = handle.run(min(args.every, args.steps - done))
                done += report.steps_completed
                crystals += report.crystals_formed
                elapsed = time.perf_counter() - start
                hot, warm = tiers(mind, handle.id)
                print(
                    f"{done:>6} {elapsed:>10.1f} {done / elapsed:>8.1f} {rss_mb():>8.0f} {hot:>9} {warm:>5} {crystals}"
                )
                if report.stopped_reason != "steps done":
                    print(f"stopped: {report.stopped_reason}")
                    break
            total = time.perf_counter() - start
            per_1000 = total / max(done, 1) * 1000
            print(
                f"\n{done} steps in {total:.1f} s ({done / total:.1f} steps/s), peak RSS {peak_mb():.0f} MB, "
                f"{crystals} crystals, cost {handle.session.cloud_spent_cents or 0:.2f} cents"
            )
            print(
                f"target: 1,000 steps < {TARGET_S_PER_1000:.0f} s | measured: {per_1000:.1f} s per 1,000 steps | "
                f"ratio target/measured {TARGET_S_PER_1000 / per_1000:.2f}x"
            )
        finally:
            mind.delete()


if __name__ == "__main__":
    main()
