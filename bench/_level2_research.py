"""Level-2 grouping study (issue 20): which rule files patterns into their domains, chosen on a
calibration split and scored on held-out data.

    python bench/_level2_research.py [--seeds 5] [--rules current,res1.1,...] [--write]

Patterns come from ``cluster_vectors`` on MiniLM embeddings (CLINC150's first 10 utterances of
each of 75 intents; the crossed incidents' action texts), seeds 0..N-1; a pattern's vector is
the mean of its members' embeddings. Each rule groups the pattern vectors; the adjusted Rand
index over the experiences is taken against the domains (families). Printed per rule: all five
CLINC domains, the crossed set, and the mean over the ten ways of splitting CLINC's domains
into 2 (calibration) and 3 (held out). A rule is chosen on the 2-domain halves (or on the
crossed set) and judged on what it was not chosen on.

Rules: ``current`` (the ladder's: the widest gap up to 12 items, else group_clusters, Louvain at
resolution 1 on a k=8 graph mixing TF-IDF), ``resN`` (the same at resolution N), ``autoQ`` (the level-1 rule: resolution = Q x the
effective number of communities), ``sqrtkC`` (resolution 1 with C x sqrt(n) neighbours, 3..8,
instead of 8), ``avgT`` (average-linkage agglomeration cut at cosine
distance T), ``silhouette`` (average linkage, k of best silhouette in 2..n/2).
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
from sklearn.cluster import AgglomerativeClustering
from sklearn.metrics import adjusted_rand_score, silhouette_score

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dream_quality as dq
from _common import write_results

from graphmind.dream import clustering as cl
from graphmind.dream.entities import action_text
from graphmind.dream.ladder import SMALL_LEVEL, fold_single_children, widest_gap_groups
from graphmind.embed import MiniLMEmbedder

Rule = Callable[[np.ndarray, list[str], list[int], int], np.ndarray]


def auto(q: float) -> Rule:
    def rule(x: np.ndarray, texts: list[str], sizes: list[int], seed: int) -> np.ndarray:
        rows, cols, w = cl._knn_graph(cl.unit_rows(x), texts, min(8, len(x) - 1), 0.3, 3)
        labels = cl._auto_louvain(len(x), rows, cols, w, q, seed)
        return cl._relabel(cl._attach_singletons(labels, rows, cols, w), np.asarray(sizes, float))

    return rule


def average(t: float) -> Rule:
    def rule(x: np.ndarray, texts: list[str], sizes: list[int], seed: int) -> np.ndarray:
        model = AgglomerativeClustering(n_clusters=None, distance_threshold=t, linkage="average", metric="cosine")
        return model.fit_predict(x)

    return rule


def silhouette(x: np.ndarray, texts: list[str], sizes: list[int], seed: int) -> np.ndarray:
    best: tuple[float, np.ndarray] = (-2.0, np.zeros(len(x), np.int64))
    for k in range(2, len(x) // 2 + 1):
        labels = AgglomerativeClustering(n_clusters=k, linkage="average", metric="cosine").fit_predict(x)
        best = max(best, (float(silhouette_score(x, labels, metric="cosine")), labels), key=lambda b: b[0])
    return best[1]


def rule_of(name: str) -> Rule:
    if name == "current":  # as the ladder does: the widest gap up to SMALL_LEVEL items, else Louvain
        return lambda x, t, s, seed: (
            widest_gap_groups(x)
            if len(x) <= SMALL_LEVEL
            else cl.group_clusters(x, [[u] for u in t], sizes=s, seed=seed)
        )
    if name.startswith("res"):
        r = float(name[3:])
        return lambda x, t, s, seed: cl.group_clusters(x, [[u] for u in t], sizes=s, seed=seed, resolution=r)
    if name.startswith("sqrtk"):  # neighbours c * sqrt(n), 3..8: a graph as sparse for few items as for many
        c = float(name[5:])
        return lambda x, t, s, seed: cl.group_clusters(
            x, [[u] for u in t], sizes=s, seed=seed, k=int(np.clip(round(c * np.sqrt(len(x))), 3, 8))
        )
    if name.startswith("auto"):
        return auto(float(name[4:]))
    if name.startswith("avg"):
        return average(float(name[3:]))
    if name == "silhouette":
        return silhouette
    raise SystemExit(f"unknown rule {name!r}")


def level2_ari(data: tuple, seed: int, rule: Rule, domains: set[str] | None = None) -> float:
    vectors, texts, coarse = data
    labels = cl.cluster_vectors(vectors, texts, seed=seed)
    groups = range(int(labels.max()) + 1)
    majority = [Counter(coarse[i] for i in np.flatnonzero(labels == c)).most_common(1)[0][0] for c in groups]
    keep = [c for c in groups if domains is None or majority[c] in domains]
    centroids = cl.unit_rows(np.vstack([vectors[labels == c].mean(0) for c in keep]))
    texts_of = [" ".join(texts[i] for i in np.flatnonzero(labels == c)) for c in keep]
    sizes = [int((labels == c).sum()) for c in keep]
    grouped = (
        fold_single_children(centroids, rule(centroids, texts_of, sizes, seed)) if len(keep) > 3 else [0] * len(keep)
    )
    position = {c: k for k, c in enumerate(keep)}
    members = [i for i in range(len(labels)) if labels[i] in position]
    return adjusted_rand_score([coarse[i] for i in members], [grouped[position[labels[i]]] for i in members])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--write", action="store_true", help="put the table into bench/RESULTS.md")
    parser.add_argument("--rules", default="current,res1.1,res1.2,res1.3,auto0.2,auto0.25,auto0.3,avg0.7,silhouette")
    args = parser.parse_args()
    embedder = MiniLMEmbedder()
    texts, _, domains = dq.load(10)
    fields, _, families = dq.load_crossed()
    actions = [action_text(f["description"]) for f in fields]
    clinc = (np.asarray(embedder.embed(texts), np.float32), texts, domains)
    crossed = (np.asarray(embedder.embed(actions), np.float32), actions, families)
    names = sorted(set(domains))
    splits = [set(c) for c in itertools.combinations(names, 2)]
    seeds = range(args.seeds)
    rows = [
        f"`python bench/_level2_research.py --seeds {args.seeds} --rules {args.rules}` (level-2 ARI, mean ± sd):",
        "",
        "| rule | CLINC, 5 domains | crossed | 2-domain halves (calibration) | 3-domain halves (held out) |",
        "|---|---|---|---|---|",
    ]
    print(rows[0])
    for name in args.rules.split(","):
        rule = rule_of(name)
        full = [level2_ari(clinc, s, rule) for s in seeds]
        cross = [level2_ari(crossed, s, rule) for s in seeds]
        two = np.mean([level2_ari(clinc, s, rule, split) for split in splits for s in seeds])
        three = np.mean([level2_ari(clinc, s, rule, set(names) - split) for split in splits for s in seeds])
        rows.append(
            f"| {name} | {np.mean(full):.3f} ± {np.std(full):.3f} | {np.mean(cross):.3f} ± {np.std(cross):.3f} "
            f"| {two:.3f} | {three:.3f} |"
        )
        print(rows[-1], flush=True)
    if args.write:
        write_results("level2-research", "\n".join(rows))


if __name__ == "__main__":
    main()
