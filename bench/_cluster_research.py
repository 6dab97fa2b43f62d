"""Research bench for graphmind.dream.clustering on CLINC150 (no Neo4j, no LLM).

    python bench/_cluster_research.py [--seeds 5] [--sensitivity] [--battery] [--scale]

Takes the first 10 training utterances of each of the 75 intents (5 domains), embeds them with
MiniLM (cached in /tmp), and reports the adjusted Rand index (ARI)
- level 1: cluster_vectors labels vs intents (rows labelled -1 count as singletons);
- level 2: group_clusters over the level-1 centroids (with member texts), each experience
  taking its category's label, vs domains (experiences in no pattern are singletons).
--sensitivity: ARI for other parameter values; --battery: same defaults on other CLINC subsets
(other sizes and numbers of intents); --scale: time and peak memory at 10,000 x 384.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import time
import tracemalloc
from pathlib import Path

import numpy as np

from graphmind.dream.clustering import cluster_vectors, group_clusters
from graphmind.embed import MiniLMEmbedder

CLINC = Path(
    os.environ.get(
        "GRAPHMIND_CLINC150",
        Path(__file__).resolve().parents[2] / "shared" / "data" / "clinc150" / "clinc150_5domains.json",
    )
)
CACHE = Path("/tmp/graphmind-cluster-research")


def load(per_intent: int = 10, offset: int = 0, domains: set[str] | None = None):
    """(texts, intent labels, domain labels) of utterances offset..offset+per_intent-1 per intent."""
    data = json.loads(CLINC.read_text())
    domain_of = {i: d for d, intents in data["domains"].items() for i in intents if domains is None or d in domains}
    seen: dict[str, int] = {}
    texts, intents = [], []
    for text, intent in data["train"]:
        if intent in domain_of:
            seen[intent] = seen.get(intent, 0) + 1
            if offset < seen[intent] <= offset + per_intent:
                texts.append(text)
                intents.append(intent)
    return texts, intents, [domain_of[i] for i in intents]


def embed(texts: list[str]) -> np.ndarray:
    CACHE.mkdir(exist_ok=True)
    path = CACHE / (hashlib.sha1("\n".join(texts).encode()).hexdigest()[:16] + ".npy")
    if not path.exists():
        np.save(path, MiniLMEmbedder(batch_size=64).embed(texts))
    return np.load(path)


def ari(truth, labels) -> float:
    """Adjusted Rand index (Hubert & Arabie)."""
    _, t = np.unique(np.asarray(truth), return_inverse=True)
    _, p = np.unique(np.asarray(labels), return_inverse=True)
    table = np.zeros((t.max() + 1, p.max() + 1))
    np.add.at(table, (t, p), 1)
    pairs = lambda v: (v * (v - 1) / 2).sum()  # noqa: E731
    index, a, b, total = pairs(table), pairs(table.sum(1)), pairs(table.sum(0)), pairs(np.array([len(t)]))
    expected = a * b / total
    return float((index - expected) / ((a + b) / 2 - expected)) if (a + b) / 2 != expected else 1.0


def singletons(labels: np.ndarray) -> np.ndarray:
    return np.where(labels >= 0, labels, labels.max(initial=0) + 1 + np.arange(len(labels)))


def levels(
    x: np.ndarray, texts: list[str], seed: int = 0, l1: dict | None = None, l2: dict | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Level-1 labels and level-2 labels per experience (-1: in no pattern)."""
    labels = cluster_vectors(x, texts, min_cluster_size=3, seed=seed, **(l1 or {}))
    ids = np.unique(labels[labels >= 0])
    cents = np.array([x[labels == c].mean(0) for c in ids])
    members = [[t for t, lab in zip(texts, labels) if lab == c] for c in ids]
    groups = group_clusters(cents, members, sizes=[len(m) for m in members], seed=seed, **(l2 or {}))
    return labels, np.where(labels >= 0, groups[np.maximum(labels, 0)], -1)


def score(x, texts, intents, domains, seed=0, l1=None, l2=None) -> tuple[float, float, int, int]:
    p, c = levels(x, texts, seed, l1, l2)
    return ari(intents, singletons(p)), ari(domains, singletons(c)), p.max() + 1, c.max() + 1


def report_seeds(x, texts, intents, domains, seeds: int) -> None:
    rows = [score(x, texts, intents, domains, s) for s in range(seeds)]
    for s, (a1, a2, n1, n2) in enumerate(rows):
        print(f"seed {s}: level 1 ARI {a1:.3f} ({n1} patterns)   level 2 ARI {a2:.3f} ({n2} categories)")
    a = np.array([r[:2] for r in rows])
    print(
        f"mean over {seeds} seeds: level 1 {a[:, 0].mean():.3f} ± {a[:, 0].std():.3f}, "
        f"level 2 {a[:, 1].mean():.3f} ± {a[:, 1].std():.3f}   (targets 0.75, 0.6)"
    )


def sensitivity(x, texts, intents, domains) -> None:
    print(
        f"\nlevel 1 (seed 0; default k = round(sqrt(n)/3) = {int(np.clip(round(np.sqrt(len(x)) / 3), 5, 50))}, "
        "q = 0.25, alpha = 0.3)"
    )
    for name, values in (
        ("k", [5, 8, 12, 15, 20]),
        ("q", [0.15, 0.2, 0.3, 0.35]),
        ("resolution", [0.5, 1, 2, 8, 16]),
        ("alpha", [0.0, 0.5]),
    ):
        cells = []
        for v in values:
            a1, _, n1, _ = score(x, texts, intents, domains, 0, {name: v})
            cells.append(f"{name}={v}: {a1:.3f} ({n1})")
        print("  " + "   ".join(cells))
    print("level 2 (seed 0; defaults k = 8, resolution = 1, alpha = 0.3)")
    for name, values in (("k", [3, 5, 10, 15]), ("resolution", [0.5, 0.75, 1.5, 2]), ("alpha", [0.0, 0.5])):
        cells = []
        for v in values:
            _, a2, _, n2 = score(x, texts, intents, domains, 0, None, {name: v})
            cells.append(f"{name}={v}: {a2:.3f} ({n2})")
        print("  " + "   ".join(cells))


def battery() -> None:
    print("\nsame defaults on other subsets (seed 0): level 1 ARI (patterns) / level 2 ARI (categories)")
    for label, kwargs in (
        ("utterances 51-60 of each intent", {"offset": 50}),
        ("banking + travel, 10 per intent", {"domains": {"banking", "travel"}}),
        ("30 per intent (2,250)", {"per_intent": 30}),
        ("100 per intent (7,500)", {"per_intent": 100}),
    ):
        texts, intents, domains = load(**kwargs)
        a1, a2, n1, n2 = score(embed(texts), texts, intents, domains)
        print(
            f"  {label:34} n={len(texts):5}: {a1:.3f} ({n1} for {len(set(intents))} intents) / "
            f"{a2:.3f} ({n2} for {len(set(domains))} domains)"
        )


def scale() -> None:
    """10,000 vectors: the 7,600 train + oos_train utterances and 2,400 noisy copies."""
    data = json.loads(CLINC.read_text())
    texts = [t for t, _ in data["train"]] + [t for t, _ in data["oos_train"]]
    x = embed(texts)
    rng = np.random.default_rng(0)
    extra = rng.choice(len(x), 10_000 - len(x), replace=False)
    x = np.vstack([x, x[extra] + rng.normal(0, 0.02, (len(extra), x.shape[1])).astype(np.float32)])
    texts += [texts[i] for i in extra]
    for with_texts in (True, False):
        started = time.perf_counter()
        labels = cluster_vectors(x, texts if with_texts else None, seed=0)
        took = time.perf_counter() - started
        tracemalloc.start()  # slows the Python loops down a lot: a separate, untimed run
        cluster_vectors(x, texts if with_texts else None, seed=0)
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        print(
            f"10,000 x 384, texts={with_texts}: {took:.1f} s, {labels.max() + 1} clusters, "
            f"peak of traced (numpy and Python) allocations {peak:.0f} MB"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--sensitivity", action="store_true")
    parser.add_argument("--battery", action="store_true")
    parser.add_argument("--scale", action="store_true")
    parser.add_argument("--louvain", action="store_true", help="graphmind's Louvain beside networkx's")
    args = parser.parse_args()
    texts, intents, domains = load()
    x = embed(texts)
    print(f"{len(texts)} experiences, {len(set(intents))} intents, {len(set(domains))} domains")
    report_seeds(x, texts, intents, domains, args.seeds)
    if args.sensitivity:
        sensitivity(x, texts, intents, domains)
    if args.battery:
        battery()
    if args.scale:
        scale()
    if args.louvain:
        louvain(x, texts)


def louvain(x: np.ndarray, texts: list[str]) -> None:
    """cluster_vectors with graphmind's Louvain and with networkx's on the same k-NN graph."""
    import networkx as nx
    from sklearn.metrics import adjusted_rand_score

    from graphmind.dream import clustering

    own = clustering._louvain

    def by_networkx(n, rows, cols, w, resolution, seed):
        graph = nx.Graph()
        graph.add_nodes_from(range(n))
        graph.add_weighted_edges_from(zip(rows.tolist(), cols.tolist(), w.tolist()))
        labels = np.zeros(n, np.int64)
        for label, members in enumerate(nx.community.louvain_communities(graph, resolution=resolution, seed=seed)):
            labels[list(members)] = label
        return labels

    found = {}
    for name, impl in (("graphmind", own), ("networkx", by_networkx)):
        clustering._louvain = impl
        started = time.perf_counter()
        found[name] = cluster_vectors(x, texts, seed=0)
        print(f"louvain {name}: {time.perf_counter() - started:.2f} s, {found[name].max() + 1} clusters")
    clustering._louvain = own
    print(f"agreement (ARI between the two): {adjusted_rand_score(found['graphmind'], found['networkx']):.3f}")


if __name__ == "__main__":
    main()
