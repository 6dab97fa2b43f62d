"""What forgetting costs (issue 26, item 4): ``Mind.forget`` of one turn and of a whole session
in a conversation mind of growing size, beside the plain baseline of deleting the same nodes
(``forget/delete_nodes`` alone: DETACH DELETE by uid).

    python bench/forget_bench.py [--sizes 2000,20000] [--repeats 7]

The mind is imported from synthetic conversations (20-turn sessions, words drawn with a seeded
generator). Each repeat forgets turns not forgotten before. forget's extra work: reading the
memories and their edges, the derived closure, the full-text check of each distinctive word
(after waiting for the index to catch up), the scan of derived nodes for copies, the dream
lease and the ForgetRun. Printed: median milliseconds, the baseline, their ratio, and the load
average (the VM is shared).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import bench_store, scratch_mind

from graphmind.mind import Mind

WORDS = (
    "ledger budget retry deploy kite garden oven river ticket review lunch train invoice cache "
    "window paint guitar meeting report queue schedule doctor weekend printer salad lamp"
).split()


def conversations(turns: int, rng: np.random.Generator) -> list[dict]:
    rows = []
    for s in range(turns // 20):
        rows.append(
            {
                "type": "conversation",
                "session_id": f"s{s}",
                "started_at": f"2025-01-{s % 28 + 1:02d}T10:00:00Z",
                "participants": ["Ann", "Bo"],
                "turns": [
                    {
                        "id": f"s{s}-t{t}",
                        "speaker": "Ann" if t % 2 else "Bo",
                        "text": " ".join(rng.choice(WORDS, 8)) + f" zq{s}x{t}",
                    }
                    for t in range(20)
                ],
            }
        )
    return rows


def timed(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="2000,20000")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(f"{'turns':>7} {'what':<14} {'forget ms':>10} {'delete ms':>10} {'ratio':>6}  load")
    with bench_store() as (store, settings):
        for size in (int(s) for s in args.sizes.split(",")):
            with Mind(scratch_mind("bench-forget"), store, settings) as mind:
                try:
                    with tempfile.TemporaryDirectory() as folder:
                        path = Path(folder) / "c.jsonl"
                        path.write_text("".join(json.dumps(r) + "\n" for r in conversations(size, rng)))
                        mind.import_jsonl(path)
                    sessions = iter(range(size // 20))
                    for what, pick in (
                        ("one turn", lambda s: [f"s{s}-t5"]),
                        ("a session", lambda s: [f"s{s}-t{t}" for t in range(20)]),
                    ):
                        ours, base = [], []
                        for _ in range(args.repeats):
                            ids, other = pick(next(sessions)), pick(next(sessions))
                            uids = [f"{mind.name}:{i}" for i in other]
                            ours.append(timed(partial(mind.forget, ids)))
                            base.append(timed(partial(store.write, "forget/delete_nodes", mind=mind.name, uids=uids)))
                        f, d = statistics.median(ours), statistics.median(base)
                        print(f"{size:>7} {what:<14} {f:>10.1f} {d:>10.1f} {f / d:>6.1f}  {os.getloadavg()[0]:.1f}")
                finally:
                    mind.delete()


if __name__ == "__main__":
    main()
