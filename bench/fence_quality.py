"""Wander fence quality: does a fenced-out concept cover a locus's domain?

    python bench/fence_quality.py [--split 0.5]

Reads tests/data/wander_fence/pairs.jsonl (fenced-out concept, locus domain, label), embeds
both sides with the default MiniLM model and scores the rule graphmind uses
(``graphmind.wander._logic.domain_fenced_out``: cosine >= DOMAIN_EXCLUDE_COSINE) beside two
plain baselines: the concept-only rule it replaced (cosine >= EXCLUDE_COSINE, 0.6, which a
one-word fence concept against a memory's whole text never reaches) and a shared word.
Prints the balanced accuracy of each, and the threshold that a sweep over the first half of
the pairs (shuffled with a fixed seed) picks, scored on the other half.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import numpy as np

from graphmind.embed import MiniLMEmbedder
from graphmind.wander._logic import DOMAIN_EXCLUDE_COSINE, EXCLUDE_COSINE

PAIRS = Path(__file__).resolve().parents[1] / "tests" / "data" / "wander_fence" / "pairs.jsonl"


def balanced_accuracy(predicted: np.ndarray, truth: np.ndarray) -> float:
    tpr = float(np.mean(predicted[truth])) if truth.any() else 1.0
    tnr = float(np.mean(~predicted[~truth])) if (~truth).any() else 1.0
    return (tpr + tnr) / 2


def sweep(cosines: np.ndarray, truth: np.ndarray) -> float:
    """The middle of the thresholds whose balanced accuracy is within 0.01 of the best (a
    plateau's middle, not a lone peak that one pair decides)."""
    grid = np.round(np.arange(0.20, 0.80, 0.01), 2)
    scores = [balanced_accuracy(cosines >= t, truth) for t in grid]
    best = max(scores)
    winners = grid[[i for i, s in enumerate(scores) if s >= best - 0.01]]
    return float(np.round(np.median(winners), 2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", type=float, default=0.5)
    args = parser.parse_args()
    rows = [json.loads(line) for line in PAIRS.read_text().splitlines() if line.strip()]
    embedder = MiniLMEmbedder()
    fences = embedder.embed([r["fence"] for r in rows])
    domains = embedder.embed([r["domain"] for r in rows])
    cosines = np.einsum("ij,ij->i", fences, domains)
    truth = np.array([r["out"] for r in rows])
    shared = np.array([bool(set(r["fence"].lower().split()) & set(r["domain"].lower().split())) for r in rows])
    order = list(range(len(rows)))
    random.Random(0).shuffle(order)
    cut = int(len(order) * args.split)
    fit, held = np.array(order[:cut]), np.array(order[cut:])
    picked = sweep(cosines[fit], truth[fit])
    print(f"{len(rows)} pairs ({int(truth.sum())} out), {PAIRS.relative_to(PAIRS.parents[3])}")
    print(f"{'rule':<44} {'balanced accuracy':>18}")
    for name, predicted in (
        (f"domain cosine >= {DOMAIN_EXCLUDE_COSINE} (graphmind)", cosines >= DOMAIN_EXCLUDE_COSINE),
        (f"domain cosine >= {EXCLUDE_COSINE} (concept-only threshold)", cosines >= EXCLUDE_COSINE),
        ("shared word (baseline)", shared),
    ):
        print(f"{name:<44} {balanced_accuracy(predicted, truth):>18.3f}")
    print(
        f"sweep on {len(fit)} pairs picks {picked:.2f}; on the other {len(held)}: "
        f"{balanced_accuracy(cosines[held] >= picked, truth[held]):.3f} "
        f"(graphmind's {DOMAIN_EXCLUDE_COSINE}: {balanced_accuracy(cosines[held] >= DOMAIN_EXCLUDE_COSINE, truth[held]):.3f})"
    )
    print(f"sweep on all pairs picks {sweep(cosines, truth):.2f}")
    print(
        f"cosines of positives: min {cosines[truth].min():.2f} median {np.median(cosines[truth]):.2f}; negatives: max {cosines[~truth].max():.2f} median {np.median(cosines[~truth]):.2f}"
    )


if __name__ == "__main__":
    main()
