"""Pattern quality when a mind dreams after every small session, as a daily user's does.

    python bench/dream_sessions_quality.py [--data crossed,ops,...] [--size 20] [--order interleaved] [--write]

Each labelled set of ``bench/dream_quality.py`` is captured in its own (shuffled) order, in
sessions of ``--size`` experiences, each session ended with ``Mind.end_session`` (a dream over
that session and what earlier runs deferred). Printed per set: the adjusted Rand index of the
final patterns against the labels (experiences in no pattern count as singletons), the share
of experiences in a pattern, the purity of the patterns (the share of their experiences that
carry their majority label), and, as the baseline, one dream over all of them at once
(captured without a session). ``--order interleaved`` captures the labels in turn (one of
each, then the next of each...), as a workshop's log runs job after job: every session of
fewer experiences than labels holds one of each, the hardest case for dreaming often.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import bench_store, scratch_mind, write_table
from dream_nights_quality import labelled
from dream_quality import labels_with_singletons
from sklearn.metrics import adjusted_rand_score

from graphmind.mind import Mind


def dream_sessions(captured: list[dict], size: int) -> tuple[dict, Counter]:
    """Experience id → pattern id or None, after sessions of ``size`` (0: one dream of all),
    and how many runs' verification ended in each status."""
    with bench_store() as (store, settings):
        mind = Mind(scratch_mind("bench-dream-sessions"), store, settings)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                statuses: Counter = Counter()
                if not size:  # no session: triage's cap of representatives per session stays out of it
                    mind.capture_many(captured)
                    statuses[mind.dream().verification.get("status")] += 1
                for k, start in enumerate(range(0, len(captured), size or len(captured))):
                    if size:
                        mind.capture_many(captured[start : start + size], session_id=f"s{k}")
                        statuses[mind.end_session(f"s{k}").verification.get("status")] += 1
            rows = mind.store.read("dream/list_memberships", mind=mind.name)
            return {r["id"]: r["pattern"] for r in rows}, statuses
        finally:
            mind.delete()
            mind.close()


def interleaved(captured: list[dict], labels: list[str]) -> tuple[list[dict], list[str]]:
    """``captured`` and ``labels`` with the labels taken in turn, each in its own order."""
    queues: dict[str, list[int]] = defaultdict(list)
    for k, label in enumerate(labels):
        queues[label].append(k)
    order = [q[n] for n in range(max(map(len, queues.values()))) for q in queues.values() if n < len(q)]
    return [captured[k] for k in order], [labels[k] for k in order]


def score(captured: list[dict], labels: list[str], size: int) -> dict:
    owner, statuses = dream_sessions(captured, size)
    found = [owner.get(c["id"]) for c in captured]
    members: dict[str, Counter] = defaultdict(Counter)
    for pattern, label in zip(found, labels):
        if pattern:
            members[pattern][label] += 1
    placed = sum(sum(c.values()) for c in members.values())
    return {
        "ari": adjusted_rand_score(labels, labels_with_singletons(found)),
        "placed": placed / len(labels),
        "purity": sum(c.most_common(1)[0][1] for c in members.values()) / max(1, placed),
        "patterns": len(members),
        "failed": f"{statuses['failed']}/{sum(statuses.values())}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="crossed,ops,workshop,helpdesk,civic,campus,garden,incidents,transit")
    parser.add_argument("--size", type=int, default=20)
    parser.add_argument("--per-intent", type=int, default=10)
    parser.add_argument("--order", default="shuffled", choices=["shuffled", "interleaved"])
    parser.add_argument("--write", action="store_true", help="put the table into bench/RESULTS.md (dream-sessions)")
    args = parser.parse_args()
    lines = [
        f"| data | sessions of {args.size} ({args.order}): ARI | in a pattern | purity | patterns "
        "| verification failed | one dream (baseline): ARI | in a pattern | purity | patterns | ratio |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name in args.data.split(","):
        captured, labels = labelled(name, args.per_intent)
        if args.order == "interleaved":
            captured, labels = interleaved(captured, labels)
        ours, once = score(captured, labels, args.size), score(captured, labels, 0)
        ratio = f"{ours['ari'] / once['ari']:.2f}" if once["ari"] > 0.05 else "-"
        line = (
            f"| {name} ({len(labels)}) | {ours['ari']:.3f} | {ours['placed']:.2f} | {ours['purity']:.2f} "
            f"| {ours['patterns']} | {ours['failed']} runs | {once['ari']:.3f} | {once['placed']:.2f} | {once['purity']:.2f} "
            f"| {once['patterns']} | {ratio} |"
        )
        print(line, flush=True)
        lines.append(line)
    if args.write:
        write_table("dream-sessions", "dream_sessions_quality.py", lines, "offline LLM, MiniLM; ARI against the labels")


if __name__ == "__main__":
    main()
