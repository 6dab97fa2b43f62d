"""Triage quality on labelled capture streams (issue 20).

Each capture is marked keep or drop by hand. ``tests/data/triage/captures.jsonl``: two
far-apart domains (a bakery and an operations team; routine successes repeated in other words,
failures, surprises), written for the set. ``tests/data/triage_blind/captures.jsonl``: a
hydrology survey team's and a freight dispatcher's streams, written and labelled blind by a
helper who saw no code (held out). The dream's own triage runs on MiniLM embeddings of the
descriptions; a capture "survives" when it is a representative that goes on to compression.
Printed per domain and per set: the drop rate (the spec asks 50-80%) beside the share labelled
drop, the recall of "keep" captures, of failures and of "drop" captures, beside triage by
similarity alone (the same triage without its rule for successes told again), keep-all and a
random triage at the same drop rate (mean of 200 draws).

``--calibrate`` also chooses on one domain and scores on the other (both ways): the lowest
``named_duplicate_similarity`` (steps of 0.05 from the crossed set's floor, 0.6) that keeps
every "keep" capture, and the highest ``min_importance`` (the spec's importance, steps of 0.05)
that does.

    .venv/bin/python bench/triage_quality.py [--duplicate-similarity X] [--named-duplicate-similarity Z]
        [--min-importance Y] [--calibrate] [--write]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import write_results

from graphmind.dream import DreamParams
from graphmind.dream import triage as triage_module
from graphmind.dream.coherence import chance_level
from graphmind.dream.items import ExperienceRow
from graphmind.dream.triage import triage
from graphmind.embed import MiniLMEmbedder

SETS = Path(__file__).resolve().parent.parent / "tests" / "data"
DATA = SETS / "triage" / "captures.jsonl"
HELD_OUT = SETS / "triage_blind" / "captures.jsonl"


CHANCE = [0.0]
"""The embedder's chance cosine for a pair (coherence.chance_level), as the dream passes it."""


def load(path: Path = DATA) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def rows_of(items: list[dict]) -> list[ExperienceRow]:
    return [
        ExperienceRow(
            id=it["id"],
            description=it["description"],
            outcome=it["outcome"],
            kind=it.get("kind", "move"),
            strategy_used=it["strategy"],
            timestamp=f"2026-01-01T00:{n:02d}:00",
        )
        for n, it in enumerate(items)
    ]


def score(items: list[dict], survived: set[int]) -> tuple[float, float, float]:
    n = len(items)
    keep = [i for i, it in enumerate(items) if it["label"] == "keep"]
    fail = [i for i, it in enumerate(items) if it["outcome"] == "failure"]
    drop_rate = 1 - len(survived) / n
    return drop_rate, sum(i in survived for i in keep) / len(keep), sum(i in survived for i in fail) / len(fail)


def drop_recall(items: list[dict], survived: set[int]) -> float:
    """The share of the captures labelled drop that triage dropped."""
    drops = [i for i, it in enumerate(items) if it["label"] == "drop"]
    return sum(i not in survived for i in drops) / max(1, len(drops))


def random_at(items: list[dict], rate: float, draws: int = 200) -> tuple[float, float, float]:
    rng = np.random.default_rng(0)
    n = len(items)
    kept = n - round(rate * n)
    results = [score(items, set(rng.choice(n, kept, replace=False).tolist())) for _ in range(draws)]
    return tuple(float(np.mean(col)) for col in zip(*results))  # type: ignore[return-value]


def calibrate(items: list[dict], vectors: dict[str, np.ndarray]) -> list[str]:
    """Leave one domain out: a setting chosen on one domain, scored on the other."""
    sweeps = {
        "named_duplicate_similarity": ([round(0.6 + 0.05 * k, 2) for k in range(7)], min),
        "min_importance": ([round(0.3 + 0.05 * k, 2) for k in range(8)], max),
    }
    domains = sorted({it["domain"] for it in items})
    lines = []
    for name, (grid, pick) in sweeps.items():
        for chosen_on in domains:
            part = [it for it in items if it["domain"] == chosen_on]
            ok = [v for v in grid if run(part, vectors[chosen_on], DreamParams(**{name: v}))[1] == 1.0]
            value = pick(ok) if ok else grid[0]
            for other in domains:
                if other != chosen_on:
                    held = [it for it in items if it["domain"] == other]
                    drop, recall, fails = run(held, vectors[other], DreamParams(**{name: value}))
                    lines.append(
                        f"{name}={value} chosen on {chosen_on}: {other} drop {drop:.2f}, keep-recall "
                        f"{recall:.2f}, fail-recall {fails:.2f}"
                    )
    return lines


def run(part: list[dict], vectors: np.ndarray, params: DreamParams) -> tuple[float, float, float]:
    return score(part, survivors(part, vectors, params))


def survivors(part: list[dict], vectors: np.ndarray, params: DreamParams, retold: bool = True) -> set[int]:
    rule = triage_module.retold
    if not retold:  # the baseline: near-duplicates by similarity alone
        triage_module.retold = lambda *args: {}  # type: ignore[assignment]
    try:
        return set(triage(rows_of(part), vectors, params, chance=CHANCE[0]).kept)
    finally:
        triage_module.retold = rule


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duplicate-similarity", type=float, default=None)
    parser.add_argument("--named-duplicate-similarity", type=float, default=None)
    parser.add_argument("--min-importance", type=float, default=None)
    parser.add_argument("--calibrate", action="store_true", help="choose on one domain, score on the other")
    parser.add_argument("--write", action="store_true", help="put the figures into bench/RESULTS.md (triage-quality)")
    args = parser.parse_args()
    settings = {
        "duplicate_similarity": args.duplicate_similarity,
        "named_duplicate_similarity": args.named_duplicate_similarity,
        "min_importance": args.min_importance,
    }
    params = DreamParams(**{k: v for k, v in settings.items() if v is not None})
    items = load()
    embedder = MiniLMEmbedder()
    CHANCE[0] = chance_level(embedder)(2)
    out = [
        f"triage params: duplicate_similarity={params.duplicate_similarity} "
        f"named_duplicate_similarity={params.named_duplicate_similarity} min_importance={params.min_importance}",
        "drop: the share dropped (labelled drop); recalls of keep / failure / drop captures",
        f"{'set':13} {'n':>3}  {'triage: drop, keep/fail/drop recall':>36}  {'similarity alone':>30}  "
        f"{'random same rate':>18}  keep-all",
    ]
    for label, stream in (("", items), (" (held out)", load(HELD_OUT))):
        for domain in sorted({it["domain"] for it in stream}) + ["all" + label]:
            part = [it for it in stream if domain in ("all" + label, it["domain"])]
            vectors = np.asarray(embedder.embed([it["description"] for it in part]), dtype=np.float32)
            labelled = sum(it["label"] == "drop" for it in part) / len(part)
            found = [survivors(part, vectors, params, retold) for retold in (True, False)]
            (drop, recall, fails), (bdrop, brecall, bfails) = (score(part, kept) for kept in found)
            _, rrecall, rfails = random_at(part, drop)
            out.append(
                f"{domain:13} {len(part):3d}  {drop:5.2f} ({labelled:.2f}) {recall:5.2f} {fails:5.2f} "
                f"{drop_recall(part, found[0]):5.2f}     {bdrop:5.2f} {brecall:5.2f} {bfails:5.2f} "
                f"{drop_recall(part, found[1]):5.2f}  {rrecall:8.2f} {rfails:8.2f}  1.00 (drop 0.00)"
            )
    if args.calibrate:
        by_domain = {
            d: np.asarray(embedder.embed([it["description"] for it in items if it["domain"] == d]), dtype=np.float32)
            for d in sorted({it["domain"] for it in items})
        }
        out += ["", "leave one domain out (--calibrate):", *calibrate(items, by_domain)]
    print("\n".join(out))
    if args.write:
        flags = " ".join(a for a in sys.argv[1:] if a != "--write")
        command = f"python bench/triage_quality.py {flags}".strip()
        write_results("triage-quality", f"`{command}`:\n\n```\n" + "\n".join(out) + "\n```")


if __name__ == "__main__":
    main()
