"""Facts valid in time (issue 26, item 3): what preferring valid facts and ``as_of`` cost and give.

    python bench/valid_time_bench.py [--facts 300] [--queries 100] [--k 10]

One mind holds ``--facts`` pairs: an older fact, then a newer one captured with
``supersedes=[older]`` (the older is marked invalid_at). Each query is an older fact's own
text, so plain relevance tends to rank the superseded fact first. Printed, per query set:

- valid first: the share of queries where the newer fact ranks above the superseded one in
  recall's answer, beside the plain hybrid order (the same hits sorted by fused score, what
  recall returned before facts had a valid time);
- as_of: the share of queries, as of a moment between the two captures, whose hits hold the
  older fact and not the newer one;
- latency: p50/p95 of default recall and of recall with ``as_of``, and their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import bench_store, scratch_mind

from graphmind.mind import Mind

SERVICES = "billing search checkout ledger payouts invoices identity catalog shipping reports".split()
WINDOWS = "Monday Tuesday Wednesday Thursday Friday".split()
OWNERS = "Ana Bo Chen Dara Eli Fay Gus Hana Ivo Jun".split()


def facts(n: int) -> list[tuple[str, str]]:
    """(older, newer) fact texts: who deploys which service when, then a change to it."""
    out = []
    for i in range(n):
        service, owner = SERVICES[i % len(SERVICES)], OWNERS[(i // len(SERVICES)) % len(OWNERS)]
        old_day, new_day = WINDOWS[i % len(WINDOWS)], WINDOWS[(i + 2) % len(WINDOWS)]
        tag = f"cluster {i}"
        out.append(
            (
                f"{owner} deploys the {service} service on {tag} every {old_day} morning after the freeze.",
                f"Change for {tag}: {service} releases by {owner} now happen on {new_day}.",
            )
        )
    return out


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] if len(values) > 1 else values[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--facts", type=int, default=300)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--k", type=int, default=10)
    args = parser.parse_args()
    pairs = facts(args.facts)
    with bench_store() as (store, settings):
        mind = Mind(scratch_mind("bench-valid-time"), store, settings)
        try:
            mind.capture_many(
                [{"id": f"old-{i}", "description": old, "outcome": "success"} for i, (old, _) in enumerate(pairs)]
            )
            time.sleep(0.05)
            between = datetime.now(UTC)
            time.sleep(0.05)
            for i, (_, new) in enumerate(pairs):
                mind.capture({"id": f"new-{i}", "description": new, "outcome": "success"}, supersedes=[f"old-{i}"])
            mind.embed()
            for i in range(5):  # warm-up
                mind.recall(pairs[i][0], k=args.k)
                mind.recall(pairs[i][0], k=args.k, as_of=between)
            ours = plain = seen_then = 0
            asked = 0
            default_ms: list[float] = []
            as_of_ms: list[float] = []
            for i in range(min(args.queries, len(pairs))):
                old, new = f"old-{i}", f"new-{i}"
                started = time.perf_counter()
                result = mind.recall(pairs[i][0], k=args.k)
                default_ms.append((time.perf_counter() - started) * 1000)
                got = [h.id for h in result.hits]
                by_score = [h.id for h in sorted(result.hits, key=lambda h: -h.score)]
                if old in got and new in got:
                    asked += 1
                    ours += got.index(new) < got.index(old)
                    plain += by_score.index(new) < by_score.index(old)
                started = time.perf_counter()
                then = [h.id for h in mind.recall(pairs[i][0], k=args.k, as_of=between).hits]
                as_of_ms.append((time.perf_counter() - started) * 1000)
                seen_then += old in then and new not in then
            n = len(default_ms)
            print(f"mind of {2 * len(pairs)} facts ({len(pairs)} superseded), {n} queries, k={args.k}")
            print(
                f"valid first (both in the hits, {asked} queries): {ours / max(asked, 1):.2f}  plain hybrid order: {plain / max(asked, 1):.2f}"
            )
            print(f"as_of between the captures: older seen, newer hidden in {seen_then / n:.2f} of queries")
            d50, d95 = statistics.median(default_ms), percentile(default_ms, 95)
            a50, a95 = statistics.median(as_of_ms), percentile(as_of_ms, 95)
            print(
                f"latency ms  default p50 {d50:.1f} p95 {d95:.1f}  as_of p50 {a50:.1f} p95 {a95:.1f}  ratio p95 {a95 / d95:.2f}"
            )
        finally:
            mind.delete()
            mind.close()


if __name__ == "__main__":
    main()
