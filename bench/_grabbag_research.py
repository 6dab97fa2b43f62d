"""Can verification tell a grab-bag pattern from one technique by its experiences alone? (issue 20)

    MODE=same|cross python bench/_grabbag_research.py clinc,crossed,ops,workshop

For each labelled set (dream_quality's loaders; raw descriptions, MiniLM), true groups (4-12
experiences of one label) against grab-bags of the same size made of 2-3 labels of the same
family (MODE=same) or of different families (MODE=cross). Prints, per statistic, the AUC of
telling them apart and the 5th/50th/95th percentiles of each: ``cohesion`` (mean pairwise
cosine, lower for a bag), ``split`` (the best 2-3 cluster silhouette of an average-linkage
tree, higher for a bag), ``loo_min`` (the member least like the mean of the others). A
research script (no --write): its figures are quoted in the issue's note.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage
from sklearn.metrics import roc_auc_score, silhouette_score

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import dream_quality as dq

from graphmind.embed import MiniLMEmbedder

SIZES = (4, 6, 9, 12)


def load(name: str) -> tuple[list[str], list[str], list[str]]:
    if name == "clinc":
        return dq.load(10)
    if name in dq.INTENT_FILES:
        return dq.load(None, dq.INTENT_FILES[name])
    fields, labels, families = dq.load_crossed(dq.CROSSED_FILES[name])
    return [f["description"] for f in fields], labels, families


def cohesion(v: np.ndarray) -> float:
    n, total = len(v), v.sum(0)
    return float((total @ total - n) / (n * (n - 1)))


def best_split(v: np.ndarray) -> float:
    tree = linkage(v, "average", metric="cosine")
    scores = [-1.0]
    for k in (2, 3):
        labels = fcluster(tree, k, "maxclust") if k < len(v) else np.zeros(len(v))
        if len(set(labels)) > 1:
            scores.append(float(silhouette_score(v, labels, metric="cosine")))
    return max(scores)


def loo_min(v: np.ndarray) -> float:
    total = v.sum(0)
    return min(float(v[i] @ ((total - v[i]) / np.linalg.norm(total - v[i]))) for i in range(len(v)))


def groups(name: str, same_family: bool, rng: np.random.Generator, embedder: MiniLMEmbedder) -> list[tuple]:
    """(size, parts, cohesion, split, loo_min) of true groups (parts 0) and grab-bags."""
    texts, label_list, family_list = load(name)
    vectors = np.asarray(embedder.embed(texts), float)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    lab, fam = np.array(label_list), np.array(family_list)
    labels = sorted(set(label_list))
    family_of = {x: fam[lab == x][0] for x in labels}
    rows = []

    def add(pick: np.ndarray, parts: int) -> None:
        v = vectors[pick]
        rows.append((len(pick), parts, cohesion(v), best_split(v), loo_min(v)))

    for size in SIZES:
        for x in labels:
            members = np.flatnonzero(lab == x)
            if len(members) >= size:
                add(rng.choice(members, size, replace=False), 0)
        for parts in (2, 3):
            for _ in labels:
                first = rng.choice(labels)
                others = [x for x in labels if x != first and (family_of[x] == family_of[first]) == same_family]
                if len(others) < parts - 1:
                    continue
                chosen = [first, *rng.choice(others, parts - 1, replace=False)]
                per = size // parts
                add(np.concatenate([rng.choice(np.flatnonzero(lab == x), per, replace=False) for x in chosen]), parts)
    return rows


def main() -> None:
    same_family = os.environ.get("MODE", "same") == "same"
    embedder = MiniLMEmbedder()
    for name in sys.argv[1].split(","):
        rows = groups(name, same_family, np.random.default_rng(0), embedder)
        is_bag = [r[1] > 0 for r in rows]
        for column, stat, sign in ((2, "cohesion(-)", -1), (3, "split(+)", 1), (4, "loo_min(-)", -1)):
            values = np.array([r[column] for r in rows])
            auc = roc_auc_score(is_bag, sign * values)
            true, bag = values[~np.array(is_bag)], values[np.array(is_bag)]
            spread = lambda a: "/".join(f"{np.percentile(a, q):.3f}" for q in (5, 50, 95))  # noqa: E731
            print(f"{name:9s} {stat:12s} AUC {auc:.3f} true p5/p50/p95 {spread(true)}  bag {spread(bag)}")


if __name__ == "__main__":
    main()
