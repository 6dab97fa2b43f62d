"""What rumination's Context Object holds, scored against hand labels (issue 21, item 5).

    python bench/ruminate_quality.py [--k 8]

Each mind of tests/data/ruminate/ (labels.json names its stimuli, with the memories each
context must and must not hold) is imported into a scratch mind on a real Neo4j (GRAPHMIND_HOME
/ NEO4J_URI as the CLI) and ruminated on offline. An *atom* here is a memory the Context
Object's sections cite (the mind's Identity aside). Per stimulus:

- precision: cited must-haves / cited labelled memories (must ∪ must-not); "-" when none cited;
- recall: cited must-haves / must-haves; "-" when there are none;
- distractors: must-not memories cited.

Beside it, the plain baseline: the top-k of ``Mind.recall(stimulus, k)`` poured into sections.

Steps: how many steps the rumination took, and beside it (``no-DR``) how many it takes with
the diminishing-returns stop turned off (``RuminationParams(patience=None)``); a summary per
stimulus kind (on-topic / weak, name-only counted as weak / off-topic) closes the table. The
target (issue 21): 3-8 steps when the mind holds much on the stimulus, 1-2 when it holds little.

``--calibrate`` cross-validates relevance's ``MIN_SHARED`` (the shared-stem threshold) over
the minds: for each mind, the value with the best summed F1 (distractors count as false
positives) on the *other* minds is chosen, and its F1 on the held-out mind is printed; then
the value is chosen on one half of the minds and scored on the other half, both ways.

A summary per mind gives the mean precision and recall beside the top-k baseline's.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))
from _common import bench_store, scratch_mind

from graphmind.llm.offline import OfflineLLM
from graphmind.mind import Mind
from graphmind.ruminate import RuminationParams, relevance

DATA = ROOT / "tests" / "data" / "ruminate"


def score(cited: set[str], must: set[str], must_not: set[str]) -> tuple[str, str, int]:
    labelled = cited & (must | must_not)
    precision = f"{len(cited & must) / len(labelled):.2f}" if labelled else "-"
    recall = f"{len(cited & must) / len(must):.2f}" if must else "-"
    return precision, recall, len(cited & must_not)


def _mean(values: list[str]) -> str:
    """The mean of the figures among ``values`` ("-" where a case has none)."""
    figures = [float(v) for v in values if v != "-"]
    return f"{sum(figures) / len(figures):.2f}" if figures else "-"


def f1(cited: set[str], must: set[str], must_not: set[str]) -> float:
    """F1 of the cited labelled memories; 1.0 for an off-topic case that cites none."""
    hit, wrong = len(cited & must), len(cited & must_not)
    if not must:
        return 1.0 if not wrong else 0.0
    return 2 * hit / (2 * hit + wrong + len(must - cited))


def calibrate(values: list[int]) -> None:
    labels = json.loads((DATA / "labels.json").read_text())
    scores: dict[int, dict[str, float]] = {v: {} for v in values}
    with bench_store() as (store, settings):
        for file_name, cases in labels.items():
            mind = Mind(scratch_mind("bench-rq"), store, settings, llm=OfflineLLM())
            try:
                mind.import_jsonl(DATA / file_name)
                for value in values:
                    relevance.MIN_SHARED = value
                    total = 0.0
                    for case in cases:
                        result = mind.ruminate(case["stimulus"], sender=case["sender"])
                        cited = {i for s in result.context.sections for i in s.node_ids} - {"me"}
                        total += f1(cited, set(case["must"]), set(case["must_not"]))
                    scores[value][file_name] = total / len(cases)
            finally:
                mind.delete()
    minds = list(labels)
    print("MIN_SHARED  " + "  ".join(f"{m.split('.')[0]:>8}" for m in minds) + "   (mean F1 per mind)")
    for value in values:
        print(f"{value:>10}  " + "  ".join(f"{scores[value][m]:>8.2f}" for m in minds))
    for held in minds:
        best = max(values, key=lambda v: (sum(scores[v][m] for m in minds if m != held), -abs(v - 2)))
        print(
            f"held out {held.split('.')[0]:<10} fitted MIN_SHARED={best} on the others -> F1 {scores[best][held]:.2f}"
        )
    half = len(minds) // 2
    for chosen_on, scored_on in ((minds[:half], minds[half:]), (minds[half:], minds[:half])):
        best = max(values, key=lambda v: (sum(scores[v][m] for m in chosen_on), -abs(v - 2)))
        held_f1 = sum(scores[best][m] for m in scored_on) / len(scored_on)
        print(
            f"chosen on {'+'.join(m.split('.')[0] for m in chosen_on)}: MIN_SHARED={best}; "
            f"mean F1 on {'+'.join(m.split('.')[0] for m in scored_on)} {held_f1:.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=8, help="the baseline's top-k (default 8)")
    parser.add_argument("--calibrate", action="store_true", help="cross-validate MIN_SHARED over the minds")
    args = parser.parse_args()
    if args.calibrate:
        calibrate([1, 2, 3])
        return
    labels = json.loads((DATA / "labels.json").read_text())
    print(
        f"{'mind':<14} {'kind':<10} {'steps':>5} {'no-DR':>5} {'tokens':>6}  {'P':>5} {'R':>5} {'distr':>5}  "
        f"{'base P':>6} {'base R':>6} {'distr':>5}"
    )
    by_kind: dict[str, list[tuple[int, int]]] = {}
    by_mind: dict[str, list[tuple[str, str, str, str]]] = {}
    with bench_store() as (store, settings):
        for file_name, cases in labels.items():
            mind = Mind(scratch_mind("bench-rq"), store, settings, llm=OfflineLLM())
            try:
                mind.import_jsonl(DATA / file_name)
                for case in cases:
                    must, must_not = set(case["must"]), set(case["must_not"])
                    result = mind.ruminate(case["stimulus"], sender=case["sender"])
                    plain = mind.ruminate(
                        case["stimulus"], sender=case["sender"], params=RuminationParams(patience=None)
                    )
                    kind = "weak" if case["kind"] == "name-only" else case["kind"]
                    by_kind.setdefault(kind, []).append((len(result.steps), len(plain.steps)))
                    cited = {i for s in result.context.sections for i in s.node_ids} - {"me"}
                    baseline = {h.node.id for h in mind.recall(case["stimulus"], k=args.k).hits} - {"me"}
                    p, r, d = score(cited, must, must_not)
                    bp, br, bd = score(baseline, must, must_not)
                    by_mind.setdefault(file_name.split(".")[0], []).append((p, r, bp, br))
                    print(
                        f"{file_name.split('.')[0]:<14} {case['kind']:<10} {len(result.steps):>5} {len(plain.steps):>5} "
                        f"{result.context.token_count:>6}  {p:>5} {r:>5} {d:>5}  {bp:>6} {br:>6} {bd:>5}"
                    )
            finally:
                mind.delete()
    print()
    for name, rows in by_mind.items():
        means = [_mean([row[i] for row in rows]) for i in range(4)]
        print(
            f"{name:<14} mean P {means[0]}  R {means[1]}   baseline (top-{args.k} recall) mean P {means[2]}  R {means[3]}"
        )
    print()
    for kind, pairs in by_kind.items():
        taken, off = [p[0] for p in pairs], [p[1] for p in pairs]
        print(
            f"{kind:<10} steps {min(taken)}-{max(taken)} (mean {sum(taken) / len(taken):.1f}); "
            f"without diminishing returns {min(off)}-{max(off)} (mean {sum(off) / len(off):.1f})"
        )


if __name__ == "__main__":
    main()
