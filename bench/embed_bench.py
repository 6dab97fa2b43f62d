"""Embedders side by side: throughput, and 1-NN intent accuracy on CLINC150 (no Neo4j needed).

    python bench/embed_bench.py [--data ../shared/data/clinc150] [--per-intent 20] [--seed 0] [--repeat 3]

The data is ``clinc150_5domains.json`` (75 intents of 5 domains, 100 training utterances each;
out-of-scope utterances are left out). ``--per-intent`` utterances of each intent are drawn
with a seeded generator (20 x 75 = 1,500 by default). Throughput is sentences/s embedding all
of them in one ``embed`` call, warm (after loading the model and one warm-up batch), median of
``--repeat`` runs; the first call's model-loading time is printed apart. Accuracy is
leave-one-out 1-nearest-neighbour by cosine: each utterance takes the intent of its most
similar other utterance.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from graphmind.embed import Embedder, HashingEmbedder, MiniLMEmbedder

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "clinc150"
FILE = "clinc150_5domains.json"


def load_sample(data: Path, per_intent: int, seed: int) -> tuple[list[str], np.ndarray, int]:
    """``per_intent`` utterances of each intent (seeded draw), their intent ids, and the pool size."""
    path = data / FILE if data.is_dir() else data
    rows = json.loads(path.read_text(encoding="utf-8"))["train"]
    by_intent: dict[str, list[str]] = defaultdict(list)
    for text, intent in rows:
        by_intent[intent].append(text)
    rng = np.random.default_rng(seed)
    texts, labels = [], []
    for label, intent in enumerate(sorted(by_intent)):
        pool = by_intent[intent]
        for i in sorted(rng.choice(len(pool), size=min(per_intent, len(pool)), replace=False)):
            texts.append(pool[i])
            labels.append(label)
    return texts, np.asarray(labels), len(rows)


def throughput(embedder: Embedder, texts: list[str], repeat: int) -> tuple[float, float, np.ndarray]:
    """(first-call seconds incl. loading, warm sentences/s, the vectors)."""
    start = time.perf_counter()
    embedder.embed(texts[:64])
    first = time.perf_counter() - start
    rates, vectors = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        vectors = embedder.embed(texts)
        rates.append(len(texts) / (time.perf_counter() - start))
    return first, statistics.median(rates), vectors


def loo_1nn_accuracy(vectors: np.ndarray, labels: np.ndarray) -> float:
    """Share of rows whose most similar other row (cosine) has the same label."""
    sims = vectors @ vectors.T
    np.fill_diagonal(sims, -np.inf)
    return float(np.mean(labels[sims.argmax(axis=1)] == labels))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"directory of {FILE}, or the file")
    parser.add_argument("--per-intent", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    texts, labels, pool = load_sample(args.data, args.per_intent, args.seed)
    print(
        f"CLINC150 5 domains: {len(texts):,} utterances = {args.per_intent} per intent x "
        f"{len(set(labels.tolist()))} intents, drawn with seed {args.seed} from {pool:,}; "
        f"mean {np.mean([len(t) for t in texts]):.0f} chars; {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.1f} (other processes slow the figures down)"
    )
    results = {}
    for name, embedder in (("minilm", MiniLMEmbedder()), ("hashing", HashingEmbedder())):
        first, rate, vectors = throughput(embedder, texts, args.repeat)
        results[name] = (rate, loo_1nn_accuracy(vectors, labels))
        print(f"  {name}: {embedder.model_id}; first call (load + 64 sentences) {first:.2f} s")
    print(f"{'embedder':<10}{'sentences/s':>13}{'1-NN acc':>10}")
    for name, (rate, acc) in results.items():
        print(f"{name:<10}{rate:>13,.0f}{acc:>10.3f}")
    (m_rate, m_acc), (h_rate, h_acc) = results["minilm"], results["hashing"]
    print(
        f"{'ratio':<10}{m_rate / h_rate:>12.2f}x{m_acc / h_acc:>9.2f}x   (minilm / hashing; "
        f"warm median of {args.repeat} runs; leave-one-out)"
    )


if __name__ == "__main__":
    main()
